package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.CollectiveAlgorithms.Allgather;
import dev.mpj.runtime.config.CollectiveAlgorithms.Allreduce;
import dev.mpj.runtime.config.CollectiveAlgorithms.Alltoall;
import dev.mpj.runtime.config.CollectiveAlgorithms.Bcast;
import dev.mpj.runtime.config.CollectiveAlgorithms.Hierarchical;
import dev.mpj.runtime.node.NodeMap;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The selection rules (MPICH's thresholds) and the settings that force an algorithm. */
class CollectiveTuningTest {
    private final CollectiveTuning auto = CollectiveTuning.automatic();

    @Test
    void bcastUsesTheTreeForShortMessagesOrFewRanksAndScatterAllgatherOtherwise() {
        assertEquals(Bcast.BINOMIAL, auto.bcast(CollectiveTuning.BCAST_SHORT_MSG - 1, 64));
        assertEquals(Bcast.BINOMIAL, auto.bcast(1 << 20, CollectiveTuning.BCAST_MIN_PROCS - 1));
        assertEquals(Bcast.SCATTER_DOUBLING, auto.bcast(CollectiveTuning.BCAST_SHORT_MSG, 16));
        assertEquals(Bcast.SCATTER_RING, auto.bcast(CollectiveTuning.BCAST_SHORT_MSG, 12));
        assertEquals(Bcast.SCATTER_RING, auto.bcast(CollectiveTuning.BCAST_LONG_MSG, 16));
    }

    @Test
    void allgatherUsesRecursiveDoublingForShortTotalsAndTheRingForLongOnes() {
        assertEquals(Allgather.RECURSIVE_DOUBLING, auto.allgather(CollectiveTuning.ALLGATHER_LONG_MSG - 1, 8));
        assertEquals(Allgather.RECURSIVE_DOUBLING, auto.allgather(CollectiveTuning.ALLGATHER_SHORT_MSG - 1, 7));
        assertEquals(Allgather.RING, auto.allgather(CollectiveTuning.ALLGATHER_SHORT_MSG, 7));
        assertEquals(Allgather.RING, auto.allgather(CollectiveTuning.ALLGATHER_LONG_MSG, 8));
    }

    @Test
    void allreducePicksByLengthAndNeverReordersANonCommutativeOperation() {
        assertEquals(Allreduce.RECURSIVE_DOUBLING, auto.allreduce(CollectiveTuning.ALLREDUCE_SHORT_MSG, 8, TestVectors.SUM));
        assertEquals(Allreduce.RABENSEIFNER, auto.allreduce(CollectiveTuning.ALLREDUCE_SHORT_MSG + 4, 8, TestVectors.SUM));
        assertEquals(Allreduce.RING, auto.allreduce(CollectiveTuning.ALLREDUCE_RING_MSG, 7, TestVectors.SUM));
        assertEquals(Allreduce.RABENSEIFNER, auto.allreduce(CollectiveTuning.ALLREDUCE_RING_MSG, 8, TestVectors.SUM));
        CollectiveTuning ring = new CollectiveTuning(Bcast.AUTO, Allgather.AUTO, Allreduce.RING, Alltoall.AUTO);
        assertEquals(Allreduce.RECURSIVE_DOUBLING, ring.allreduce(1 << 20, 7, TestVectors.COMPOSE));
    }

    @Test
    void alltoallUsesBruckForShortBlocksOnManyRanksThenPostsAllThenPairs() {
        assertEquals(Alltoall.BRUCK, auto.alltoall(CollectiveTuning.ALLTOALL_SHORT_MSG, 8));
        assertEquals(Alltoall.SCATTERED, auto.alltoall(CollectiveTuning.ALLTOALL_SHORT_MSG, 7));
        assertEquals(Alltoall.SCATTERED, auto.alltoall(CollectiveTuning.ALLTOALL_MEDIUM_MSG, 8));
        assertEquals(Alltoall.PAIRWISE, auto.alltoall(CollectiveTuning.ALLTOALL_MEDIUM_MSG + 1, 8));
        assertEquals(Alltoall.PAIRWISE, auto.alltoall(CollectiveTuning.ALLTOALL_MEDIUM_MSG + 1, 3));
    }

    @Test
    void aPairsAlltoallTakesOneAlgorithmForEveryBlockSize() {
        for (int block : new int[] {1, CollectiveTuning.ALLTOALL_MEDIUM_MSG, CollectiveTuning.ALLTOALL_MEDIUM_MSG + 1,
                1 << 20}) {
            assertEquals(Alltoall.SCATTERED, auto.alltoall(block, 2), "block of " + block + " bytes");
        }
    }

    @Test
    void settingsForceAnAlgorithmByItsName() {
        CollectiveTuning forced = CollectiveTuning.from(Settings.defaults()
                .with(Setting.COLL_BCAST, "scatter-ring")
                .with(Setting.COLL_ALLGATHER, "ring")
                .with(Setting.COLL_ALLREDUCE, "Rabenseifner")
                .with(Setting.COLL_ALLTOALL, "pairwise"));
        assertEquals(Bcast.SCATTER_RING, forced.bcast(1, 2));
        assertEquals(Allgather.RING, forced.allgather(1, 2));
        assertEquals(Allreduce.RABENSEIFNER, forced.allreduce(4, 2, TestVectors.SUM));
        assertEquals(Alltoall.PAIRWISE, forced.alltoall(1, 2));
    }

    @Test
    void anUnknownAlgorithmNameListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CollectiveTuning.from(
                Settings.defaults().with(Setting.COLL_ALLREDUCE, "butterfly")));
        assertTrue(e.getMessage().contains("mpj.coll.allreduce") && e.getMessage().contains("rabenseifner"),
                e.getMessage());
    }

    private static NodeLayout blocks(int np, int nodes) {
        int[] all = new int[np];
        for (int r = 0; r < np; r++) {
            all[r] = r;
        }
        return NodeLayout.of(new CommSpec(0, 1, all, 0), NodeMap.blocks(np, nodes));
    }

    @Test
    void hierarchicalOnRunsNodeAwareWheneverSomeNodeHoldsSeveralRanksOfSeveralNodes() {
        CollectiveTuning on = auto.with(Hierarchical.ON);
        for (CollectiveKind kind : new CollectiveKind[] {CollectiveKind.BARRIER, CollectiveKind.BCAST,
                CollectiveKind.REDUCE, CollectiveKind.ALLREDUCE, CollectiveKind.ALLGATHER}) {
            assertTrue(on.nodeAware(kind, 1 << 20, blocks(7, 3)), kind.name());
            assertFalse(on.nodeAware(kind, 8, blocks(8, 1)), kind + " on one node");
            assertFalse(on.nodeAware(kind, 8, blocks(4, 4)), kind + " with one rank per node");
        }
    }

    @Test
    void hierarchicalAutoRunsNodeAwareWhereMeasuredToWin() {
        NodeLayout blocks = blocks(8, 2);
        assertTrue(auto.nodeAware(CollectiveKind.BARRIER, 0, blocks));
        assertFalse(auto.nodeAware(CollectiveKind.BCAST, CollectiveTuning.BCAST_SHORT_MSG - 1, blocks));
        assertTrue(auto.nodeAware(CollectiveKind.BCAST, CollectiveTuning.BCAST_SHORT_MSG, blocks));
        assertFalse(auto.nodeAware(CollectiveKind.ALLREDUCE, CollectiveTuning.ALLREDUCE_SHORT_MSG, blocks));
        assertTrue(auto.nodeAware(CollectiveKind.ALLREDUCE, CollectiveTuning.ALLREDUCE_SHORT_MSG + 8, blocks));
        assertTrue(auto.nodeAware(CollectiveKind.REDUCE, CollectiveTuning.ALLREDUCE_SHORT_MSG + 8, blocks));
        assertTrue(auto.nodeAware(CollectiveKind.ALLGATHER, CollectiveTuning.NODE_AWARE_ALLGATHER_MSG - 8, blocks));
        assertFalse(auto.nodeAware(CollectiveKind.ALLGATHER, CollectiveTuning.NODE_AWARE_ALLGATHER_MSG, blocks));
        assertFalse(auto.nodeAware(CollectiveKind.ALLTOALL, 8, blocks));
    }

    @Test
    void hierarchicalAutoBroadcastsShortMessagesNodeAwareWhenNodesAreNotRankRanges() {
        NodeLayout interleaved = NodeLayout.of(new CommSpec(0, 1, new int[] {0, 1, 2, 3}, 0),
                NodeMap.fromNodeIds(new int[] {0, 1, 0, 1}));
        assertTrue(auto.nodeAware(CollectiveKind.BCAST, 8, interleaved));
    }

    @Test
    void hierarchicalOffNeverRunsNodeAware() {
        CollectiveTuning off = auto.with(Hierarchical.OFF);
        assertTrue(off.flatOnly());
        assertFalse(off.nodeAware(CollectiveKind.BARRIER, 0, blocks(8, 2)));
        assertFalse(off.nodeAware(CollectiveKind.BCAST, 8, blocks(8, 2)));
    }

    @Test
    void theHierarchicalSettingIsReadByName() {
        assertTrue(CollectiveTuning.from(Settings.defaults().with(Setting.COLL_HIERARCHICAL, "OFF")).flatOnly());
        assertFalse(CollectiveTuning.from(Settings.defaults()).flatOnly());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CollectiveTuning.from(
                Settings.defaults().with(Setting.COLL_HIERARCHICAL, "sometimes")));
        assertTrue(e.getMessage().contains("mpj.coll.hierarchical") && e.getMessage().contains("auto, on, off"),
                e.getMessage());
    }
}
