package dev.mpj.runtime.coll;

import dev.mpj.runtime.config.CollectiveAlgorithms.SharedMemory;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NodeLocalKindsTest {
    private static final Set<CollectiveKind> ROOM_KINDS = EnumSet.of(CollectiveKind.BARRIER, CollectiveKind.BCAST,
            CollectiveKind.REDUCE, CollectiveKind.ALLREDUCE, CollectiveKind.ALLGATHER);

    private static Set<CollectiveKind> served(NodeLocalKinds kinds) {
        Set<CollectiveKind> s = EnumSet.noneOf(CollectiveKind.class);
        for (CollectiveKind k : CollectiveKind.values()) {
            if (kinds.serves(k)) {
                s.add(k);
            }
        }
        return s;
    }

    @Test
    void automaticSendsTheBarrierAndBcastThroughTheRoomWhenEveryRankHasACore() {
        assertEquals(EnumSet.of(CollectiveKind.BARRIER, CollectiveKind.BCAST),
                served(NodeLocalKinds.of(SharedMemory.AUTO, 2, 2)));
    }

    @Test
    void automaticSendsEverySmallCollectiveThroughTheRoomWhenRanksOutnumberCores() {
        assertEquals(ROOM_KINDS, served(NodeLocalKinds.of(SharedMemory.AUTO, 3, 2)));
    }

    @Test
    void onSendsEverySmallCollectiveThroughTheRoomWhateverTheCores() {
        assertEquals(ROOM_KINDS, served(NodeLocalKinds.of(SharedMemory.ON, 2, 64)));
    }

    @Test
    void offSendsNoneThroughTheRoom() {
        assertEquals(EnumSet.noneOf(CollectiveKind.class), served(NodeLocalKinds.of(SharedMemory.OFF, 8, 2)));
    }
}
