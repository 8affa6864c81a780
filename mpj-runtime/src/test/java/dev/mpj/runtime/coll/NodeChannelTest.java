package dev.mpj.runtime.coll;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.CollectiveRoom;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NodeChannelTest {
    private static final int MEMBERS = 2;

    private final ByteBuffer region = ByteBuffer.allocateDirect((int) CollectiveRoom.channelLength(MEMBERS))
            .order(ByteOrder.nativeOrder());
    private final UnsafeBuffer room = new UnsafeBuffer(region);
    private final ProgressEngine engine = new ProgressEngine(0, Settings.defaults());

    private NodeChannel member(int me) {
        int[] slots = new int[MEMBERS];
        for (int i = 0; i < MEMBERS; i++) {
            slots[i] = Math.toIntExact(CollectiveRoom.slotOffset(MEMBERS, 0, i));
        }
        return new NodeChannel(room, region, engine, 2, CollectiveRoom.OWNER_OFFSET, 7, slots, me);
    }

    @Test
    void callsAreNumberedByWhatTheMemberWroteLast() {
        NodeChannel ch = member(0);
        long first = ch.nextCall();
        ch.arrive(first);
        long second = ch.nextCall();
        ch.write(second, ByteBuffer.wrap(new byte[] {1, 2, 3}));
        assertEquals(1, first);
        assertEquals(2, second);
        assertEquals(3, ch.nextCall());
        assertEquals(2, room.getLongVolatile(Math.toIntExact(CollectiveRoom.slotOffset(MEMBERS, 0, 0))
                + CollectiveRoom.WRITTEN_OFFSET), "the room's written counter");
    }

    @Test
    void aChannelMadeAgainOnTheSameSlotsCarriesOnWhereTheLastStopped() {
        NodeChannel before = member(0);
        for (int i = 0; i < 5; i++) {
            before.arrive(before.nextCall());
        }
        assertEquals(6, member(0).nextCall());
        assertEquals(1, member(1).nextCall(), "the other member's own count");
    }
}
