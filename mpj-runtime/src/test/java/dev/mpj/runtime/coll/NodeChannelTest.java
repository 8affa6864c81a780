package dev.mpj.runtime.coll;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.CollectiveRoom;
import mpi.MPIException;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
        return new NodeChannel(room, engine, 2, CollectiveRoom.OWNER_OFFSET, 7, slots, me);
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

    @Test
    void aMemberCopiesARangeOfAnothersDataIntoItsBufferAtAnOffset() {
        NodeChannel writer = member(1);
        NodeChannel reader = member(0);
        for (int call = 1; call <= 2; call++) { // both of the slot's buffers
            byte b = (byte) (10 * call);
            byte[] data = {b, (byte) (b + 1), (byte) (b + 2), (byte) (b + 3)};
            writer.write(writer.nextCall(), ByteBuffer.wrap(data));
            reader.arrive(reader.nextCall());
            reader.awaitWrittenBy(1, call);
            ByteBuffer dst = ByteBuffer.allocate(8).position(1);
            reader.copy(1, call, 4, 1, 2, dst, 3);
            assertArrayEquals(new byte[] {0, 0, 0, 0, (byte) (b + 1), (byte) (b + 2), 0, 0}, dst.array());
            assertEquals(1, dst.position(), "the destination's position");
            reader.finish(call);
        }
    }

    @Test
    void copyingDataOfAnotherLengthThanExpectedFailsWithACountError() {
        NodeChannel writer = member(1);
        writer.write(writer.nextCall(), ByteBuffer.wrap(new byte[] {1, 2, 3}));
        MPIException e = assertThrows(MPIException.class,
                () -> member(0).copy(1, 1, 4, 0, 4, ByteBuffer.allocate(4), 0));
        assertEquals(MPIException.ERR_COUNT, e.getErrorClass());
    }
}
