package dev.mpj.runtime.node;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodePlacementTest {

    @Test
    void aNodeIsCrowdedOnlyWhenItsRanksOutnumberItsCores() {
        assertFalse(new NodePlacement(2, 2).crowded());
        assertFalse(new NodePlacement(1, 64).crowded());
        assertTrue(new NodePlacement(3, 2).crowded());
    }

    @Test
    void aRanksPlacementCountsTheRanksOfItsOwnNode() {
        // Ranks 0, 2 and 4 on node 0, ranks 1 and 3 on node 1.
        NodeMap map = NodeMap.fromProcessMapping("(vector,(2,1,1),(3,1,1))", 5);
        assertEquals(3, NodePlacement.of(map, 4).localRanks());
        assertEquals(2, NodePlacement.of(map, 3).localRanks());
        assertEquals(Runtime.getRuntime().availableProcessors(), NodePlacement.of(map, 0).cores());
    }
}
