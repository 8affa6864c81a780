package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.runtime.node.NodeMap;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommunicatorCacheTest {
    private static final CommSpec WORLD = new CommSpec(0, 1, new int[] {0, 1, 2, 3}, 2);

    @Test
    void aCacheDescribesCommunicatorsOfTheSameMembersAndCallerOnly() {
        CommunicatorCache cache = new CommunicatorCache(WORLD);
        assertTrue(cache.describes(new CommSpec(4, 5, new int[] {0, 1, 2, 3}, 2)));
        assertFalse(cache.describes(new CommSpec(0, 1, new int[] {0, 1, 3, 2}, 2)), "members reordered");
        assertFalse(cache.describes(new CommSpec(0, 1, new int[] {0, 1, 2}, 2)), "a member fewer");
        assertFalse(cache.describes(new CommSpec(0, 1, new int[] {0, 1, 2, 3}, 1)), "another caller");
    }

    @Test
    void eachKindKeepsItsOwnMembersBetweenCalls() {
        CommunicatorCache cache = new CommunicatorCache(WORLD);
        Peers barrier = cache.peers(null, WORLD, CollectiveKind.BARRIER);
        assertSame(barrier, cache.peers(null, WORLD, CollectiveKind.BARRIER));
        Peers allreduce = cache.peers(null, WORLD, CollectiveKind.ALLREDUCE);
        assertNotSame(barrier, allreduce);
        assertEquals(4, allreduce.size());
        assertEquals(2, allreduce.me());
    }

    @Test
    void theLayoutIsMadeOnceForTheCommunicator() {
        CommunicatorCache cache = new CommunicatorCache(WORLD);
        NodeLayout layout = cache.layout(WORLD, NodeMap.blocks(4, 2));
        assertSame(layout, cache.layout(WORLD, NodeMap.blocks(4, 2)));
        assertEquals(2, layout.nodeCount());
        assertEquals(1, layout.node());
    }
}
