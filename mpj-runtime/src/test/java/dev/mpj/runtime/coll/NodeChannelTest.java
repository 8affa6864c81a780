package dev.mpj.runtime.coll;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.CollectiveRoom;
import mpi.MPI;
import mpi.MPIException;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
        return new NodeChannel(room, engine, 2, new RoomOwner(room, CollectiveRoom.OWNER_OFFSET, 7), slots, me);
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

    /** Data on the written counter's cache line, data just too long for it and the longest a slot holds. */
    @ParameterizedTest
    @ValueSource(ints = {4, CollectiveRoom.INLINE_CAPACITY, CollectiveRoom.INLINE_CAPACITY + 1,
            CollectiveRoom.DATA_CAPACITY})
    void aMemberCopiesARangeOfAnothersDataIntoItsBufferAtAnOffset(int n) {
        NodeChannel writer = member(1);
        NodeChannel reader = member(0);
        for (int call = 1; call <= 3; call++) { // both of the slot's buffers, and the first again
            byte[] data = new byte[n];
            for (int i = 0; i < n; i++) {
                data[i] = (byte) (10 * call + i);
            }
            writer.write(writer.nextCall(), ByteBuffer.wrap(data));
            reader.arrive(reader.nextCall());
            reader.awaitWrittenBy(1, call);
            ByteBuffer dst = ByteBuffer.allocate(n + 4).position(1);
            reader.copy(1, call, n, 1, n - 2, dst, 3);
            byte[] expected = new byte[n + 4];
            System.arraycopy(data, 1, expected, 4, n - 2);
            assertArrayEquals(expected, dst.array());
            assertEquals(1, dst.position(), "the destination's position");
            reader.finish(call);
            writer.awaitWrittenBy(0, call);
        }
    }

    /**
     * A member that has written call k has finished reading call k − 1: a write after seeing that does not wait for
     * the {@code read} counter, here left behind on purpose (a wait for it would never end).
     */
    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aWriteAfterSeeingTheOthersCallWrittenDoesNotWaitForTheirReads() {
        NodeChannel writer = member(1);
        NodeChannel other = member(0);
        for (int call = 1; call <= 2; call++) {
            writer.write(writer.nextCall(), ByteBuffer.wrap(new byte[] {1}));
            other.arrive(other.nextCall());
        }
        writer.awaitWritten(2);
        writer.write(writer.nextCall(), ByteBuffer.wrap(new byte[] {3}));
        assertEquals(4, writer.nextCall());
    }

    @Test
    void copyingDataOfAnotherLengthThanExpectedFailsWithACountError() {
        NodeChannel writer = member(1);
        writer.write(writer.nextCall(), ByteBuffer.wrap(new byte[] {1, 2, 3}));
        MPIException e = assertThrows(MPIException.class,
                () -> member(0).copy(1, 1, 4, 0, 4, ByteBuffer.allocate(4), 0));
        assertEquals(MPIException.ERR_COUNT, e.getErrorClass());
    }

    /** The other member never arrives: the wait's own test sees the revocation and ends with its error. */
    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aWaitForAnotherMemberEndsWhenTheCollectivesAreRevoked() {
        engine.setThreadLevel(MPI.THREAD_MULTIPLE); // the revocation comes from this thread while another waits
        NodeChannel ch = member(0);
        CompletableFuture<?> call = CompletableFuture.runAsync(() -> {
            long c = ch.nextCall();
            ch.arrive(c);
            ch.awaitWritten(c);
        });
        int written = Math.toIntExact(CollectiveRoom.slotOffset(MEMBERS, 0, 0)) + CollectiveRoom.WRITTEN_OFFSET;
        while (room.getLongVolatile(written) == 0) {
            Thread.onSpinWait(); // until the call has arrived and waits for the other member
        }
        engine.revoke(2, new int[] {0}, "a member failed");
        ExecutionException e = assertThrows(ExecutionException.class, call::get);
        assertEquals(engine.revocationError(2).getMessage(),
                assertInstanceOf(MPIException.class, e.getCause()).getMessage(), "the revocation's error");
    }
}
