package dev.mpj.runtime.coll;

import dev.mpj.runtime.config.CollectiveAlgorithms.Allgather;
import dev.mpj.runtime.config.CollectiveAlgorithms.Alltoall;
import dev.mpj.runtime.config.CollectiveAlgorithms.Allreduce;
import dev.mpj.runtime.config.CollectiveAlgorithms.Bcast;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.mpj.runtime.coll.TestVectors.assertSame;
import static dev.mpj.runtime.coll.TestVectors.of;
import static dev.mpj.runtime.coll.TestVectors.zeros;

/**
 * Every data-movement algorithm against the sequential answer, for 1 to 8 ranks, several roots, and
 * blocks of 0 bytes, 1 byte, 1 KiB and past the (test) eager threshold; each job runs its calls back to back.
 */
@Timeout(120)
class DataMovementTest {
    static final int[] SIZES = {0, 1, 1024, 9_001};
    /** 1 Mi four-byte elements: the long-message paths. */
    static final int BIG = 4 << 20;

    static Stream<Arguments> withEveryCount(Enum<?>[] algorithms) {
        List<Arguments> cases = new ArrayList<>();
        for (Enum<?> a : algorithms) {
            for (int np = 1; np <= 8; np++) {
                cases.add(Arguments.of(a, np));
            }
        }
        return cases.stream();
    }

    static Stream<Arguments> bcasts() {
        return withEveryCount(new Enum<?>[] {Bcast.BINOMIAL, Bcast.SCATTER_DOUBLING, Bcast.SCATTER_RING});
    }

    static Stream<Arguments> allgathers() {
        return withEveryCount(new Enum<?>[] {Allgather.RECURSIVE_DOUBLING, Allgather.RING});
    }

    static Stream<Arguments> alltoalls() {
        return withEveryCount(new Enum<?>[] {Alltoall.BRUCK, Alltoall.SCATTERED, Alltoall.PAIRWISE});
    }

    static Stream<Arguments> counts() {
        return IntStream.rangeClosed(1, 8).mapToObj(Arguments::of);
    }

    static int[] roots(int np) {
        return new TreeSet<>(List.of(0, np - 1, np / 2)).stream().mapToInt(Integer::intValue).toArray();
    }

    static CollectiveTuning forcing(Enum<?> algorithm) {
        return new CollectiveTuning(
                algorithm instanceof Bcast b ? b : Bcast.AUTO,
                algorithm instanceof Allgather g ? g : Allgather.AUTO,
                algorithm instanceof Allreduce r ? r : Allreduce.AUTO,
                algorithm instanceof Alltoall t ? t : Alltoall.AUTO);
    }

    @ParameterizedTest(name = "{0} np={1}")
    @MethodSource("bcasts")
    void bcastGivesEveryRankTheRootsBytes(Bcast algorithm, int np) {
        new ThreadedJob(np, forcing(algorithm)).run(bcastsFromSeveralRoots(SIZES));
    }

    /** Bcasts of each of these sizes from several roots, each checked on every member. */
    static ThreadedJob.RankBody bcastsFromSeveralRoots(int... sizes) {
        return (coll, comm) -> {
            int seed = 0;
            for (int bytes : sizes) {
                for (int root : roots(comm.size())) {
                    seed++;
                    ByteBuffer buf = comm.rank() == root ? of(root, bytes, seed) : zeros(bytes);
                    coll.bcast(comm, buf, root);
                    assertSame(of(root, bytes, seed), buf, "bcast of " + bytes + " bytes from " + root);
                }
            }
        };
    }

    @ParameterizedTest(name = "{0} np={1}")
    @MethodSource("bcasts")
    void bcastOfALongMessageFromTheLastRank(Bcast algorithm, int np) {
        if (np != 3 && np != 8) {
            return;
        }
        new ThreadedJob(np, forcing(algorithm)).run((coll, world) -> {
            int root = np - 1;
            ByteBuffer buf = world.rank() == root ? of(root, BIG + 3, 1) : zeros(BIG + 3);
            coll.bcast(world, buf, root);
            assertSame(of(root, BIG + 3, 1), buf, "long bcast");
        });
    }

    @ParameterizedTest(name = "{0} np={1}")
    @MethodSource("allgathers")
    void allgatherConcatenatesEveryRanksBlockInRankOrder(Allgather algorithm, int np) {
        new ThreadedJob(np, forcing(algorithm)).run((coll, world) -> {
            int seed = 0;
            for (int bytes : SIZES) {
                seed++;
                ByteBuffer recv = zeros(bytes * np);
                coll.allgather(world, of(world.rank(), bytes, seed), recv);
                assertSame(concatenation(np, bytes, seed), recv, "allgather of " + bytes + " bytes");
            }
        });
    }

    @ParameterizedTest(name = "{0} np={1}")
    @MethodSource("allgathers")
    void allgatherOfLongBlocks(Allgather algorithm, int np) {
        if (np != 3 && np != 8) {
            return;
        }
        new ThreadedJob(np, forcing(algorithm)).run((coll, world) -> {
            int bytes = BIG / np;
            ByteBuffer recv = zeros(bytes * np);
            coll.allgather(world, of(world.rank(), bytes, 1), recv);
            assertSame(concatenation(np, bytes, 1), recv, "long allgather");
        });
    }

    @ParameterizedTest(name = "np={0}")
    @MethodSource("counts")
    void allgathervPlacesBlocksOfDifferentSizes(int np) {
        new ThreadedJob(np, CollectiveTuning.automatic()).run((coll, world) -> {
            ByteBuffer[] recv = new ByteBuffer[np];
            for (int i = 0; i < np; i++) {
                recv[i] = zeros(unevenSize(i));
            }
            coll.allgatherv(world, of(world.rank(), unevenSize(world.rank()), 4), recv);
            for (int i = 0; i < np; i++) {
                assertSame(of(i, unevenSize(i), 4), recv[i], "block of rank " + i);
            }
        });
    }

    @ParameterizedTest(name = "{0} np={1}")
    @MethodSource("alltoalls")
    void alltoallDeliversBlockJOfRankIToBlockIOfRankJ(Alltoall algorithm, int np) {
        new ThreadedJob(np, forcing(algorithm)).run((coll, world) -> {
            int seed = 0;
            for (int bytes : SIZES) {
                seed++;
                int me = world.rank();
                ByteBuffer recv = zeros(bytes * np);
                coll.alltoall(world, of(me, bytes * np, seed), recv);
                ByteBuffer expected = zeros(bytes * np);
                for (int i = 0; i < np; i++) {
                    Bytes.copy(Bytes.range(of(i, bytes * np, seed), me * bytes, (me + 1) * bytes), expected, i * bytes);
                }
                assertSame(expected, recv, "alltoall of " + bytes + "-byte blocks");
            }
        });
    }

    @ParameterizedTest(name = "np={0}")
    @MethodSource("counts")
    void alltoallvDeliversBlocksOfDifferentSizes(int np) {
        new ThreadedJob(np, CollectiveTuning.automatic()).run((coll, world) -> {
            int me = world.rank();
            ByteBuffer[] send = new ByteBuffer[np];
            ByteBuffer[] recv = new ByteBuffer[np];
            for (int i = 0; i < np; i++) {
                send[i] = of(me * np + i, unevenSize(me + i), 5);
                recv[i] = zeros(unevenSize(i + me));
            }
            coll.alltoallv(world, send, recv);
            for (int i = 0; i < np; i++) {
                assertSame(of(i * np + me, unevenSize(i + me), 5), recv[i], "block from rank " + i);
            }
        });
    }

    @ParameterizedTest(name = "np={0}")
    @MethodSource("counts")
    void gatherAndScatterMoveRankOrderedBlocksForEveryRoot(int np) {
        new ThreadedJob(np, CollectiveTuning.automatic()).run((coll, world) -> {
            int seed = 0;
            int me = world.rank();
            for (int bytes : SIZES) {
                for (int root : roots(np)) {
                    seed++;
                    ByteBuffer all = me == root ? zeros(bytes * np) : null;
                    coll.gather(world, of(me, bytes, seed), all, root);
                    if (me == root) {
                        assertSame(concatenation(np, bytes, seed), all, "gather of " + bytes + " to " + root);
                    }
                    ByteBuffer mine = zeros(bytes);
                    coll.scatter(world, me == root ? of(root, bytes * np, seed) : null, mine, root);
                    assertSame(Bytes.range(of(root, bytes * np, seed), me * bytes, (me + 1) * bytes), mine,
                            "scatter of " + bytes + " from " + root);
                }
            }
        });
    }

    @ParameterizedTest(name = "np={0}")
    @MethodSource("counts")
    void gathervAndScattervMoveBlocksOfDifferentSizes(int np) {
        new ThreadedJob(np, CollectiveTuning.automatic()).run((coll, world) -> {
            int me = world.rank();
            for (int root : roots(np)) {
                ByteBuffer[] blocks = null;
                if (me == root) {
                    blocks = new ByteBuffer[np];
                    for (int i = 0; i < np; i++) {
                        blocks[i] = zeros(unevenSize(i));
                    }
                }
                coll.gatherv(world, of(me, unevenSize(me), root), blocks, root);
                if (me == root) {
                    for (int i = 0; i < np; i++) {
                        assertSame(of(i, unevenSize(i), root), blocks[i], "gatherv block " + i);
                        blocks[i] = of(100 + i, unevenSize(i), root);
                    }
                }
                ByteBuffer mine = zeros(unevenSize(me));
                coll.scatterv(world, blocks, mine, root);
                assertSame(of(100 + me, unevenSize(me), root), mine, "scatterv block from " + root);
            }
        });
    }

    @ParameterizedTest(name = "np={0}")
    @MethodSource("counts")
    void scatterAtTheRootMayKeepItsBlockInPlace(int np) {
        new ThreadedJob(np, CollectiveTuning.automatic()).run((coll, world) -> {
            int me = world.rank();
            ByteBuffer mine = me == 0 ? null : zeros(8);
            coll.scatter(world, me == 0 ? of(0, 8 * np, 6) : null, mine, 0);
            if (me != 0) {
                assertSame(Bytes.range(of(0, 8 * np, 6), me * 8, me * 8 + 8), mine, "scatter block");
            }
        });
    }

    /** Block sizes that differ from rank to rank, including an empty one. */
    static int unevenSize(int i) {
        return (i * 37) % 101;
    }

    static ByteBuffer concatenation(int np, int bytes, int seed) {
        ByteBuffer all = zeros(bytes * np);
        for (int i = 0; i < np; i++) {
            Bytes.copy(of(i, bytes, seed), all, i * bytes);
        }
        return all;
    }
}
