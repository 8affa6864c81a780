package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.runtime.config.CollectiveAlgorithms.Hierarchical;
import dev.mpj.runtime.node.NodeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.mpj.runtime.coll.TestVectors.COMPOSE;
import static dev.mpj.runtime.coll.TestVectors.SUM;
import static dev.mpj.runtime.coll.TestVectors.assertSame;
import static dev.mpj.runtime.coll.TestVectors.of;
import static dev.mpj.runtime.coll.TestVectors.zeros;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The node-aware collectives (forced on) give the flat algorithms' results on uneven, interleaved and reversed
 * layouts and on communicators that leave ranks out, with a commutative and a non-commutative operation; and
 * they send only the leaders' messages across nodes.
 */
@Timeout(120)
class NodeAwareCollectivesTest {
    /** Up to past the eager threshold (4096 in {@link ThreadedJob}) and past the short-bcast threshold. */
    static final int[] SIZES = {8, 1024, 16_384};
    static final CollectiveTuning ON = CollectiveTuning.automatic().with(Hierarchical.ON);

    /** A job's node map and one communicator of it: its members as world ranks, in communicator rank order. */
    record Layout(String name, NodeMap nodes, int[] members) {
        int np() {
            return nodes.size();
        }

        /** The caller's view of the communicator, or null when it is not a member. */
        CommSpec comm(int worldRank) {
            for (int i = 0; i < members.length; i++) {
                if (members[i] == worldRank) {
                    return new CommSpec(2, 3, members, i);
                }
            }
            return null;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static int[] all(int np) {
        return IntStream.range(0, np).toArray();
    }

    static Stream<Layout> layouts() {
        return Stream.of(
                new Layout("7 ranks on 3 nodes (3+3+1)", NodeMap.blocks(7, 3), all(7)),
                new Layout("8 ranks on 2 nodes", NodeMap.blocks(8, 2), all(8)),
                new Layout("8 ranks on 4 nodes", NodeMap.blocks(8, 4), all(8)),
                new Layout("5 ranks, one alone on its node", NodeMap.fromNodeIds(new int[] {0, 0, 0, 0, 1}), all(5)),
                new Layout("7 ranks dealt round-robin to 3 nodes", NodeMap.fromNodeIds(new int[] {0, 1, 2, 0, 1, 2, 0}),
                        all(7)),
                new Layout("7 ranks on 3 nodes, communicator in reverse", NodeMap.blocks(7, 3),
                        new int[] {6, 5, 4, 3, 2, 1, 0}),
                new Layout("5 of 8 ranks on 2 nodes", NodeMap.blocks(8, 2), new int[] {1, 2, 5, 6, 7}));
    }

    /** Runs {@code body} on the members of the layout's communicator, node-aware collectives forced on. */
    static ThreadedJob run(Layout layout, ThreadedJob.RankBody body) {
        ThreadedJob job = new ThreadedJob(layout.np(), ON, layout.nodes());
        job.run((coll, world) -> {
            CommSpec comm = layout.comm(world.rank());
            if (comm != null) {
                body.run(coll, comm);
            }
        });
        return job;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void bcastGivesEveryRankTheRootsBytes(Layout layout) {
        run(layout, DataMovementTest.bcastsFromSeveralRoots(SIZES));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void allreduceCombinesEveryRanksVectorInRankOrder(Layout layout) {
        run(layout, ReductionCollectivesTest.allreducesInRankOrder(SIZES));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void reduceLeavesTheRankOrderedResultAtEveryRoot(Layout layout) {
        run(layout, ReductionCollectivesTest.reducesToSeveralRoots(1024));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void allgatherPutsEveryRanksBlockInRankOrder(Layout layout) {
        run(layout, (coll, comm) -> {
            int seed = 0;
            for (int bytes : SIZES) {
                seed++;
                int p = comm.size();
                ByteBuffer recv = zeros(bytes * p);
                coll.allgather(comm, of(comm.rank(), bytes, seed), recv);
                for (int r = 0; r < p; r++) {
                    assertSame(of(r, bytes, seed), Bytes.range(recv, r * bytes, (r + 1) * bytes),
                            "block " + r + " of an allgather of " + bytes + " bytes each");
                }
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void barrierReleasesNoRankBeforeEveryRankHasArrived(Layout layout) {
        AtomicInteger arrived = new AtomicInteger();
        run(layout, (coll, comm) -> {
            for (int round = 1; round <= 3; round++) {
                arrived.incrementAndGet();
                coll.barrier(comm);
                assertEquals(round * comm.size(), arrived.get(), "ranks through barrier " + round);
                coll.barrier(comm);
            }
        });
    }

    /** Eight ranks alternating between two nodes, where flat algorithms cross between the nodes at every other step. */
    static final Layout INTERLEAVED = new Layout("8 ranks alternating between 2 nodes",
            NodeMap.fromNodeIds(new int[] {0, 1, 0, 1, 0, 1, 0, 1}), all(8));

    @Test
    void bcastSendsOneMessageToTheOtherNode() {
        ThreadedJob job = run(INTERLEAVED, (coll, comm) -> coll.bcast(comm, zeros(64), 0));
        assertEquals(1, job.crossNodeFrames());
    }

    @Test
    void allreduceExchangesOneMessageEachWayBetweenTheNodeLeaders() {
        ThreadedJob job = run(INTERLEAVED, (coll, comm) -> coll.allreduce(comm, of(comm.rank(), 64, 1), zeros(64), SUM));
        assertEquals(2, job.crossNodeFrames());
    }

    @Test
    void barrierSignalsOnceEachWayBetweenTheNodeLeaders() {
        ThreadedJob job = run(INTERLEAVED, (coll, comm) -> coll.barrier(comm));
        assertEquals(2, job.crossNodeFrames());
    }

    @Test
    void aNonCommutativeAllreduceOnAnInterleavedLayoutStaysFlat() {
        // node-aware, composing nodes' partial results would mix ranks out of order; flat, many frames cross
        ThreadedJob job = run(INTERLEAVED, (coll, comm) -> coll.allreduce(comm, of(comm.rank(), 64, 1), zeros(64),
                COMPOSE));
        assertEquals(8, job.crossNodeFrames());
    }
}
