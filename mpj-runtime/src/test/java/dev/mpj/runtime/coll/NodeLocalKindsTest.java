package dev.mpj.runtime.coll;

import dev.mpj.runtime.config.CollectiveAlgorithms.SharedMemory;
import dev.mpj.runtime.node.NodePlacement;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NodeLocalKindsTest {
    private static final Set<CollectiveKind> ROOM_KINDS = EnumSet.of(CollectiveKind.BARRIER, CollectiveKind.BCAST,
            CollectiveKind.REDUCE, CollectiveKind.ALLREDUCE, CollectiveKind.ALLGATHER, CollectiveKind.ALLTOALL);

    private static Set<CollectiveKind> served(NodeLocalKinds kinds, int members) {
        Set<CollectiveKind> s = EnumSet.noneOf(CollectiveKind.class);
        for (CollectiveKind k : CollectiveKind.values()) {
            if (kinds.serves(k, members)) {
                s.add(k);
            }
        }
        return s;
    }

    @Test
    void automaticSendsTheBarrierAndBcastThroughTheRoomWhenEveryRankHasACore() {
        assertEquals(EnumSet.of(CollectiveKind.BARRIER, CollectiveKind.BCAST),
                served(NodeLocalKinds.of(SharedMemory.AUTO, new NodePlacement(4, 4)), 3));
    }

    @Test
    void automaticSendsAPairsAllreduceAllgatherAndAlltoallThroughTheRoomWhenEveryRankHasACore() {
        Set<CollectiveKind> pairKinds = EnumSet.of(CollectiveKind.BARRIER, CollectiveKind.BCAST,
                CollectiveKind.ALLREDUCE, CollectiveKind.ALLGATHER, CollectiveKind.ALLTOALL);
        assertEquals(pairKinds, served(NodeLocalKinds.of(SharedMemory.AUTO, new NodePlacement(2, 2)), 2));
        assertEquals(pairKinds, served(NodeLocalKinds.of(SharedMemory.AUTO, new NodePlacement(4, 4)), 2));
    }

    @Test
    void automaticSendsEverySmallCollectiveThroughTheRoomWhenRanksOutnumberCores() {
        assertEquals(ROOM_KINDS, served(NodeLocalKinds.of(SharedMemory.AUTO, new NodePlacement(3, 2)), 3));
    }

    @Test
    void onSendsEverySmallCollectiveThroughTheRoomWhateverTheCores() {
        assertEquals(ROOM_KINDS, served(NodeLocalKinds.of(SharedMemory.ON, new NodePlacement(4, 64)), 4));
    }

    @Test
    void offSendsNoneThroughTheRoom() {
        assertEquals(EnumSet.noneOf(CollectiveKind.class),
                served(NodeLocalKinds.of(SharedMemory.OFF, new NodePlacement(8, 2)), 2));
    }
}
