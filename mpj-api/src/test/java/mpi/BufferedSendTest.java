package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class BufferedSendTest extends MpiTestSupport {
    @BeforeEach
    void startWithRendezvousToPeers() {
        start(2, 0);
        backend.eagerToPeers = false;
    }

    /** Room for {@code messages} buffered sends of {@code bytes} each. */
    private static ByteBuffer roomFor(int messages, int bytes) {
        return ByteBuffer.allocateDirect(messages * (bytes + MPI.BSEND_OVERHEAD));
    }

    @Test
    void aBufferedSendReturnsBeforeTheMessageIsReceived() {
        MPI.Buffer_attach(roomFor(1, 8));

        MPI.COMM_WORLD.Bsend(new int[] {1, 2}, 0, 2, MPI.INT, 1, 0);

        assertEquals(1, backend.outboxSize());
        assertEquals(0, backend.awaits);
    }

    @Test
    void theDataAreCopiedSoTheBufferCanBeReusedAtOnce() {
        MPI.Buffer_attach(roomFor(1, 4));
        byte[] data = {1, 2, 3, 4};

        MPI.COMM_WORLD.Bsend(data, 0, 4, MPI.BYTE, 1, 0);
        data[0] = 99;

        assertArrayEquals(new byte[] {1, 2, 3, 4}, backend.takeSent(1).data());
    }

    @Test
    void withoutAnAttachedBufferABufferedSendIsABufferError() {
        MPIException e = assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Bsend(new int[1], 0, 1, MPI.INT, 1, 0));
        assertTrue(e.getMessage().contains("Buffer_attach"), e.getMessage());
    }

    @Test
    void outstandingMessagesBeyondTheAttachedBufferAreABufferError() {
        MPI.Buffer_attach(roomFor(2, 8));
        MPI.COMM_WORLD.Bsend(new int[2], 0, 2, MPI.INT, 1, 0);
        MPI.COMM_WORLD.Bsend(new int[2], 0, 2, MPI.INT, 1, 0);

        MPIException e = assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Bsend(new int[2], 0, 2, MPI.INT, 1, 0));
        assertTrue(e.getMessage().contains("too small"), e.getMessage());
        assertEquals(2, backend.outboxSize(), "the refused message was not sent");
    }

    @Test
    void theOverheadIsChargedPerMessage() {
        MPI.Buffer_attach(ByteBuffer.allocate(8 + MPI.BSEND_OVERHEAD - 1));

        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Bsend(new long[1], 0, 1, MPI.LONG, 1, 0));
    }

    @Test
    void roomIsFreedOnceBufferedSendsComplete() {
        MPI.Buffer_attach(roomFor(1, 4));
        MPI.COMM_WORLD.Bsend(new int[1], 0, 1, MPI.INT, 1, 0);
        backend.takeSent(1);

        MPI.COMM_WORLD.Bsend(new int[1], 0, 1, MPI.INT, 1, 0);

        assertEquals(1, backend.outboxSize());
    }

    @Test
    void anIbsendRequestIsCompleteAtOnce() {
        MPI.Buffer_attach(roomFor(1, 4));

        Request request = MPI.COMM_WORLD.Ibsend(new int[1], 0, 1, MPI.INT, 1, 3);

        Status status = request.Test();
        assertNotNull(status);
        assertEquals(1, status.source);
        assertEquals(3, status.tag);
    }

    @Test
    void detachWaitsForOutstandingBufferedSends() {
        ByteBuffer attached = roomFor(2, 4);
        MPI.Buffer_attach(attached);
        MPI.COMM_WORLD.Bsend(new int[1], 0, 1, MPI.INT, 1, 0);
        MPI.COMM_WORLD.Bsend(new int[1], 0, 1, MPI.INT, 1, 1);
        backend.later(() -> backend.takeSent(1));
        backend.later(() -> backend.takeSent(1));

        assertSame(attached, MPI.Buffer_detach());

        assertEquals(0, backend.outboxSize(), "both messages were received before detach returned");
        assertEquals(0, Environment.bufferedSends().charged());
    }

    @Test
    void detachWithNothingAttachedReturnsNull() {
        assertNull(MPI.Buffer_detach());
    }

    @Test
    void attachingASecondBufferIsABufferError() {
        MPI.Buffer_attach(roomFor(1, 4));

        assertMpiError(MPI.ERR_BUFFER, () -> MPI.Buffer_attach(roomFor(1, 4)));
    }

    @Test
    void finalizeWaitsForBufferedSends() {
        MPI.Buffer_attach(roomFor(1, 4));
        MPI.COMM_WORLD.Bsend(new int[1], 0, 1, MPI.INT, 1, 0);
        backend.later(() -> backend.takeSent(1));

        MPI.Finalize();

        assertEquals(0, backend.outboxSize());
        assertTrue(backend.finished);
    }

    @Test
    void persistentBufferedSendsCopyOnEveryStart() {
        MPI.Buffer_attach(roomFor(2, 4));
        int[] data = {1};
        Prequest send = MPI.COMM_WORLD.Bsend_init(data, 0, 1, MPI.INT, 1, 0);

        send.Start();
        send.Wait();
        data[0] = 2;
        send.Start();
        send.Wait();

        assertEquals(1, backend.takeSent(1).data()[0]);
        assertEquals(2, backend.takeSent(1).data()[0]);
    }
}
