package dev.mpj.runtime.engine;

import dev.mpj.api.Operation;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.spi.FrameHeader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames a polled transport offers in place (its ring memory, valid only during the call): which ones the engine
 * takes, that it keeps nothing pointing into the transport's memory, and that a frame taken in place never
 * overtakes an earlier one of the same peer that was refused.
 */
@Timeout(30)
class ProgressEngineInPlaceTest {
    private static final int CONTEXT = 3;
    private static final int PEER = 1;
    private ProgressEngine engine;
    private final List<Byte> sentKinds = new ArrayList<>();

    @BeforeEach
    void polledEngine() {
        engine = new ProgressEngine(0, Settings.defaults());
        engine.setRouter(new ProgressEngine.FrameRouter() {
            @Override
            public void send(int peer, ByteBuffer header, ByteBuffer payload) {
                sentKinds.add(FrameHeader.kind(header));
            }

            @Override
            public boolean needsPolling() {
                return true;
            }
        });
    }

    @Test
    void anEagerFrameGoesStraightIntoThePostedReceive() {
        byte[] room = new byte[4];
        Operation r = engine.receive(ByteBuffer.wrap(room), PEER, 5, CONTEXT);
        ByteBuffer ring = frame(FrameHeader.EAGER, 5, 0, new byte[] {1, 2, 3, 4});
        assertTrue(engine.onFrameInPlace(PEER, ring));
        scribble(ring);
        assertTrue(r.isComplete());
        assertArrayEquals(new byte[] {1, 2, 3, 4}, room);
    }

    @Test
    void theTransportIsAskedToStopReadingOnceTheLastPostedReceiveIsMatched() {
        Operation first = engine.receive(ByteBuffer.allocate(1), PEER, 5, CONTEXT);
        Operation second = engine.receive(ByteBuffer.allocate(1), PEER, 5, CONTEXT);
        assertTrue(engine.onFrameInPlace(PEER, frame(FrameHeader.EAGER, 5, 0, new byte[] {1})));
        assertTrue(first.isComplete());
        assertTrue(engine.keepReading(), "a receive is still posted: the next frame may go straight into it");
        assertTrue(engine.onFrameInPlace(PEER, frame(FrameHeader.EAGER, 5, 0, new byte[] {2})));
        assertTrue(second.isComplete());
        assertFalse(engine.keepReading(), "no receive is posted: more frames would only be copied");
        assertTrue(engine.onFrameInPlace(PEER, frame(FrameHeader.EAGER, 5, 0, new byte[] {3})));
        assertTrue(engine.keepReading(), "an unexpected frame does not stop the reading");
        assertEquals(1, engine.unexpectedCount());
    }

    @Test
    void anUnexpectedEagerFrameIsKeptAsACopyOfItsOwn() {
        ByteBuffer ring = frame(FrameHeader.EAGER, 5, 0, new byte[] {9, 8, 7});
        assertTrue(engine.onFrameInPlace(PEER, ring));
        scribble(ring);
        byte[] room = new byte[3];
        Operation r = engine.receive(ByteBuffer.wrap(room), PEER, 5, CONTEXT);
        assertTrue(r.isComplete());
        assertArrayEquals(new byte[] {9, 8, 7}, room);
    }

    @Test
    void framesWhoseHandlingSendsAreRefused() {
        assertFalse(engine.onFrameInPlace(PEER, frame(FrameHeader.EAGER_SYNC, 5, 7, new byte[1])));
        assertFalse(engine.onFrameInPlace(PEER, frame(FrameHeader.RTS, 5, 7, new byte[0])));
        assertTrue(sentKinds.isEmpty(), "nothing is sent from inside the transport's read");
    }

    @Test
    void anEagerFrameAfterARefusedOneWaitsBehindIt() {
        Operation first = engine.receive(ByteBuffer.allocate(16), PEER, 5, CONTEXT);
        Operation second = engine.receive(ByteBuffer.allocate(16), PEER, 5, CONTEXT);
        ByteBuffer sync = frame(FrameHeader.EAGER_SYNC, 5, 7, new byte[] {1});
        assertFalse(engine.onFrameInPlace(PEER, sync));
        engine.onFrame(PEER, copy(sync), () -> { });
        ByteBuffer eager = frame(FrameHeader.EAGER, 5, 0, new byte[] {2, 2});
        assertFalse(engine.onFrameInPlace(PEER, eager), "taking it now would let it overtake the refused frame");
        engine.onFrame(PEER, copy(eager), () -> { });

        engine.poll();

        assertEquals(1, first.byteCount(), "the first receive gets the first message");
        assertEquals(2, second.byteCount());
        assertEquals(List.of(FrameHeader.ACK), sentKinds);
    }

    @Test
    void eagerFramesAreTakenInPlaceAgainOnceTheInboxIsDrained() {
        ByteBuffer sync = frame(FrameHeader.EAGER_SYNC, 5, 7, new byte[1]);
        assertFalse(engine.onFrameInPlace(PEER, sync));
        engine.onFrame(PEER, copy(sync), () -> { });
        engine.poll();
        assertTrue(engine.onFrameInPlace(PEER, frame(FrameHeader.EAGER, 5, 0, new byte[1])));
    }

    private static ByteBuffer frame(byte kind, int tag, long cookie, byte[] payload) {
        ByteBuffer f = ByteBuffer.allocate(FrameHeader.LENGTH + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        FrameHeader.write(f, kind, CONTEXT, PEER, tag, cookie, kind == FrameHeader.RTS ? 1 << 20 : payload.length);
        f.put(FrameHeader.LENGTH, payload);
        return f;
    }

    private static ByteBuffer copy(ByteBuffer frame) {
        ByteBuffer c = ByteBuffer.allocate(frame.remaining()).order(ByteOrder.LITTLE_ENDIAN);
        return c.put(frame.duplicate()).flip();
    }

    /** What the ring's next writer does to the room once the offer has returned. */
    private static void scribble(ByteBuffer ring) {
        byte[] junk = new byte[ring.capacity() - FrameHeader.LENGTH];
        Arrays.fill(junk, (byte) -1);
        ring.put(FrameHeader.LENGTH, junk);
    }
}
