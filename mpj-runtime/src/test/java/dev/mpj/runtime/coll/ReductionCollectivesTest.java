package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.api.Reduction;
import dev.mpj.runtime.config.CollectiveAlgorithms.Allreduce;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.mpj.runtime.coll.DataMovementTest.forcing;
import static dev.mpj.runtime.coll.DataMovementTest.roots;
import static dev.mpj.runtime.coll.TestVectors.COMPOSE;
import static dev.mpj.runtime.coll.TestVectors.SUM;
import static dev.mpj.runtime.coll.TestVectors.assertSame;
import static dev.mpj.runtime.coll.TestVectors.of;
import static dev.mpj.runtime.coll.TestVectors.reduced;
import static dev.mpj.runtime.coll.TestVectors.zeros;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The reductions against a sequential fold in rank order, with a commutative operation (integer sum) and
 * a non-commutative one (composition of affine maps), which any combination out of rank order breaks.
 */
@Timeout(120)
class ReductionCollectivesTest {
    /** Items of 8 bytes (both operations divide it): none, one, 128 (1 KiB), and past the eager threshold. */
    static final int[] SIZES = {0, 8, 1024, 9_000};

    static Stream<Arguments> allreduces() {
        List<Arguments> cases = new ArrayList<>();
        for (Allreduce a : new Allreduce[] {Allreduce.RECURSIVE_DOUBLING, Allreduce.RABENSEIFNER, Allreduce.RING}) {
            for (int np = 1; np <= 8; np++) {
                cases.add(Arguments.of(a, np));
            }
        }
        return cases.stream();
    }

    static Stream<Arguments> counts() {
        return IntStream.rangeClosed(1, 8).mapToObj(Arguments::of);
    }

    @ParameterizedTest(name = "{0} np={1}")
    @MethodSource("allreduces")
    void allreduceCombinesEveryRanksVectorInRankOrder(Allreduce algorithm, int np) {
        new ThreadedJob(np, forcing(algorithm)).run(allreducesInRankOrder(SIZES));
    }

    @Test
    void aCollectiveContextReusedByOtherMembersRunsOverThem() {
        int np = 6;
        int bytes = 1024;
        new ThreadedJob(np, CollectiveTuning.automatic()).run((coll, world) -> {
            int me = world.rank();
            ByteBuffer all = zeros(bytes);
            coll.allreduce(world, of(me, bytes, 1), all, SUM);
            assertSame(reduced(SUM, 0, np - 1, bytes, 1), all, "allreduce over the world");
            // each half takes the world's context, as a communicator does once another is freed
            int first = me < np / 2 ? 0 : np / 2;
            CommSpec half = new CommSpec(world.pointToPointContext(), world.collectiveContext(),
                    IntStream.range(first, first + np / 2).toArray(), me - first);
            ByteBuffer part = zeros(bytes);
            coll.allreduce(half, of(me, bytes, 2), part, SUM);
            assertSame(reduced(SUM, first, first + np / 2 - 1, bytes, 2), part, "allreduce over a half");
            coll.barrier(half);
        });
    }

    /**
     * The algorithms may send from {@code send} rather than from a copy of it in {@code recv}: the result must
     * not depend on that, whether the two are one buffer (as with MPI.IN_PLACE) or apart, and a separate send
     * buffer must come back as it went in.
     */
    @ParameterizedTest(name = "{0} np={1}")
    @MethodSource("allreduces")
    void allreduceInPlaceOrApartGivesTheResultAndLeavesTheSendBufferAlone(Allreduce algorithm, int np) {
        new ThreadedJob(np, forcing(algorithm)).run((coll, comm) -> {
            int seed = 10;
            for (int bytes : SIZES) {
                seed++;
                ByteBuffer inPlace = of(comm.rank(), bytes, seed);
                coll.allreduce(comm, inPlace, inPlace, SUM);
                assertSame(reduced(SUM, 0, comm.size() - 1, bytes, seed), inPlace, "in place, " + bytes + " bytes");
                ByteBuffer send = of(comm.rank(), bytes, seed);
                ByteBuffer recv = zeros(bytes);
                coll.allreduce(comm, send, recv, SUM);
                assertSame(reduced(SUM, 0, comm.size() - 1, bytes, seed), recv, "apart, " + bytes + " bytes");
                assertSame(of(comm.rank(), bytes, seed), send, "the send buffer after " + bytes + " bytes");
            }
        });
    }

    /** Allreduces of each of these sizes by a commutative and a non-commutative op, checked on every member. */
    static ThreadedJob.RankBody allreducesInRankOrder(int... sizes) {
        return (coll, comm) -> {
            int seed = 0;
            for (Reduction op : new Reduction[] {SUM, COMPOSE}) {
                for (int bytes : sizes) {
                    seed++;
                    ByteBuffer recv = zeros(bytes);
                    coll.allreduce(comm, of(comm.rank(), bytes, seed), recv, op);
                    assertSame(reduced(op, 0, comm.size() - 1, bytes, seed), recv, "allreduce of " + bytes + " bytes");
                }
            }
        };
    }

    @ParameterizedTest(name = "{0} np={1}")
    @MethodSource("allreduces")
    void allreduceOfAMebiItemVector(Allreduce algorithm, int np) {
        if (np != 3 && np != 8) {
            return;
        }
        int bytes = DataMovementTest.BIG;
        new ThreadedJob(np, forcing(algorithm)).run((coll, world) -> {
            ByteBuffer recv = zeros(bytes);
            coll.allreduce(world, of(world.rank(), bytes, 1), recv, SUM);
            assertSame(reduced(SUM, 0, np - 1, bytes, 1), recv, "long allreduce");
        });
    }

    @ParameterizedTest(name = "np={0}")
    @MethodSource("counts")
    void reduceLeavesTheRankOrderedResultAtEveryRoot(int np) {
        new ThreadedJob(np, CollectiveTuning.automatic()).run(reducesToSeveralRoots(SIZES));
    }

    /** Reduces of each of these sizes by both ops to several roots, each checked at its root. */
    static ThreadedJob.RankBody reducesToSeveralRoots(int... sizes) {
        return (coll, comm) -> {
            int seed = 0;
            for (Reduction op : new Reduction[] {SUM, COMPOSE}) {
                for (int bytes : sizes) {
                    for (int root : roots(comm.size())) {
                        seed++;
                        ByteBuffer recv = comm.rank() == root ? zeros(bytes) : null;
                        coll.reduce(comm, of(comm.rank(), bytes, seed), recv, op, root);
                        if (comm.rank() == root) {
                            assertSame(reduced(op, 0, comm.size() - 1, bytes, seed), recv,
                                    "reduce of " + bytes + " bytes to " + root);
                        }
                    }
                }
            }
        };
    }

    @ParameterizedTest(name = "np={0}")
    @MethodSource("counts")
    void scanGivesEachRankThePrefixUpToItself(int np) {
        new ThreadedJob(np, CollectiveTuning.automatic()).run((coll, world) -> {
            int seed = 0;
            for (Reduction op : new Reduction[] {SUM, COMPOSE}) {
                for (int bytes : SIZES) {
                    seed++;
                    ByteBuffer recv = zeros(bytes);
                    coll.scan(world, of(world.rank(), bytes, seed), recv, op);
                    assertSame(reduced(op, 0, world.rank(), bytes, seed), recv, "scan of " + bytes + " bytes");
                }
            }
        });
    }

    @ParameterizedTest(name = "np={0}")
    @MethodSource("counts")
    void reduceScatterLeavesBlockIOfTheResultAtRankI(int np) {
        new ThreadedJob(np, CollectiveTuning.automatic()).run((coll, world) -> {
            int[] blocks = new int[np];
            int total = 0;
            for (int i = 0; i < np; i++) {
                blocks[i] = 8 * ((i * 5) % 7);
                total += blocks[i];
            }
            int from = 0;
            for (int i = 0; i < world.rank(); i++) {
                from += blocks[i];
            }
            for (Reduction op : new Reduction[] {SUM, COMPOSE}) {
                ByteBuffer recv = zeros(blocks[world.rank()]);
                coll.reduceScatter(world, of(world.rank(), total, 3), recv, blocks, op);
                assertSame(Bytes.range(reduced(op, 0, np - 1, total, 3), from, from + blocks[world.rank()]), recv,
                        "reduce-scatter block");
            }
        });
    }

    @Test
    void aRootOutsideTheCommunicatorIsErrRootOnEveryRank() {
        new ThreadedJob(3, CollectiveTuning.automatic()).run((coll, world) -> {
            MPIException e = assertThrows(MPIException.class, () -> coll.bcast(world, zeros(4), 3));
            assertEquals(MPIException.ERR_ROOT, e.getErrorClass());
            e = assertThrows(MPIException.class, () -> coll.reduce(world, zeros(4), zeros(4), SUM, -1));
            assertEquals(MPIException.ERR_ROOT, e.getErrorClass());
        });
    }

    @Test
    void aBlockLongerThanTheRootExpectsIsErrTruncate() {
        MPIException e = assertThrows(MPIException.class, () -> new ThreadedJob(2, CollectiveTuning.automatic())
                .run((coll, world) -> coll.gather(world, zeros(world.rank() == 1 ? 8 : 4),
                        world.rank() == 0 ? zeros(8) : null, 0)));
        assertEquals(MPIException.ERR_TRUNCATE, e.getErrorClass(), e.getMessage());
    }

    @Test
    void aBlockShorterThanTheRootExpectsIsErrCount() {
        MPIException e = assertThrows(MPIException.class, () -> new ThreadedJob(2, CollectiveTuning.automatic())
                .run((coll, world) -> coll.gather(world, zeros(world.rank() == 1 ? 2 : 4),
                        world.rank() == 0 ? zeros(8) : null, 0)));
        assertEquals(MPIException.ERR_COUNT, e.getErrorClass(), e.getMessage());
    }
}
