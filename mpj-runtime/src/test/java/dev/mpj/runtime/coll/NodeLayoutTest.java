package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.runtime.node.NodeMap;
import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a communicator's members fall on nodes: numbering, leaders, contiguity. */
class NodeLayoutTest {
    private static NodeLayout layout(NodeMap map, int[] members, int rank) {
        return NodeLayout.of(new CommSpec(0, 1, members, rank), map);
    }

    private static int[] all(int np) {
        return IntStream.range(0, np).toArray();
    }

    @Test
    void blocksOfConsecutiveRanksAreAContiguousLayout() {
        NodeLayout l = layout(NodeMap.blocks(7, 3), all(7), 4);
        assertEquals(3, l.nodeCount());
        assertTrue(l.contiguous());
        assertTrue(l.spansSharedNodes());
        assertEquals(1, l.node());
        assertArrayEquals(new int[] {3, 4, 5}, l.localRanks());
        assertEquals(1, l.localIndex());
    }

    @Test
    void theRootLeadsItsNodeAndTheLowestRankLeadsEveryOther() {
        NodeLayout l = layout(NodeMap.blocks(7, 3), all(7), 4);
        assertArrayEquals(new int[] {0, 3, 6}, l.leaders(0));
        assertArrayEquals(new int[] {0, 5, 6}, l.leaders(5));
        assertEquals(2, l.localLeaderIndex(5));
        assertEquals(0, l.localLeaderIndex(1));
    }

    @Test
    void ranksDealtRoundRobinAreNotContiguousAndNodesAreNumberedByTheirLowestRank() {
        NodeLayout l = layout(NodeMap.fromNodeIds(new int[] {5, 9, 5, 9, 5}), all(5), 3);
        assertFalse(l.contiguous());
        assertEquals(1, l.node());
        assertArrayEquals(new int[] {1, 3}, l.localRanks());
        assertArrayEquals(new int[] {0, 1}, l.leaders(0));
    }

    @Test
    void nodesAreNumberedInTheCommunicatorsOrderNotTheJobs() {
        NodeLayout l = layout(NodeMap.blocks(6, 2), new int[] {5, 4, 3, 2, 1, 0}, 0);
        assertTrue(l.contiguous());
        assertEquals(0, l.node());
        assertEquals(0, l.nodeOf(2));
        assertEquals(1, l.nodeOf(3));
    }

    @Test
    void nodesWithoutMembersAreLeftOut() {
        NodeLayout l = layout(NodeMap.blocks(8, 4), new int[] {0, 1, 6, 7}, 2);
        assertEquals(2, l.nodeCount());
        assertArrayEquals(new int[] {2, 3}, l.localRanks());
    }

    @Test
    void oneNodeOrOneRankPerNodeLeavesNothingToGain() {
        assertFalse(layout(NodeMap.blocks(4, 1), all(4), 0).spansSharedNodes());
        assertFalse(layout(NodeMap.blocks(4, 4), all(4), 0).spansSharedNodes());
        assertFalse(layout(NodeMap.blocks(8, 2), new int[] {0, 4}, 0).spansSharedNodes());
    }
}
