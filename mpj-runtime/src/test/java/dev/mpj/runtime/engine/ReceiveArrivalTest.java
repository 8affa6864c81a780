package dev.mpj.runtime.engine;

import dev.mpj.api.Arrival;
import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.spi.FrameHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A receive with an {@link Arrival}: the message's bytes go to it, where they lie, and not into the room. */
@Timeout(30)
class ReceiveArrivalTest {
    private static final int CONTEXT = 3;
    private static final int PEER = 1;

    @Test
    void anEagerFrameOfferedInPlaceGoesToTheArrivalAndNotIntoTheRoom() {
        ProgressEngine engine = new ProgressEngine(0, Settings.defaults());
        engine.setRouter(new ProgressEngine.FrameRouter() {
            @Override
            public void send(int peer, ByteBuffer header, ByteBuffer payload) {
            }

            @Override
            public boolean needsPolling() {
                return true;
            }
        });
        List<byte[]> taken = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        Arrival arrival = (offset, src, from, n) -> {
            byte[] b = new byte[n];
            src.get(from, b);
            taken.add(b);
            offsets.add(offset);
        };
        byte[] room = new byte[4];
        Operation r = engine.receive(ByteBuffer.wrap(room), arrival, PEER, 5, CONTEXT);
        ByteBuffer ring = ByteBuffer.allocate(FrameHeader.LENGTH + 4).order(ByteOrder.LITTLE_ENDIAN);
        FrameHeader.write(ring, FrameHeader.EAGER, CONTEXT, PEER, 5, 0, 4);
        ring.put(FrameHeader.LENGTH, new byte[] {1, 2, 3, 4});
        assertTrue(engine.onFrameInPlace(PEER, ring));
        assertTrue(r.isComplete());
        assertEquals(4, r.byteCount());
        assertEquals(List.of(0L), offsets);
        assertArrayEquals(new byte[] {1, 2, 3, 4}, taken.get(0));
        assertArrayEquals(new byte[4], room, "the room is left alone");
    }

    @Test
    void aRendezvousMessageReachesTheArrivalPieceByPieceInOrderAndNotTheRoom() {
        EngineHarness h = new EngineHarness(2, 1024, 1024);
        List<Long> offsets = new ArrayList<>();
        byte[] seen = new byte[4096];
        byte[] room = new byte[4096];
        Operation r = h.get(1).receive(ByteBuffer.wrap(room), (offset, src, from, n) -> {
            offsets.add(offset);
            src.get(from, seen, (int) offset, n);
        }, 0, 5, CONTEXT);
        byte[] message = new byte[4096];
        for (int i = 0; i < message.length; i++) {
            message[i] = (byte) (i + 1);
        }
        Operation s = h.get(0).send(ByteBuffer.wrap(message), 1, 5, CONTEXT, SendMode.STANDARD);
        h.pump(() -> r.isComplete() && s.isComplete());
        assertEquals(4096, r.byteCount());
        assertEquals(List.of(0L, 1024L, 2048L, 3072L), offsets);
        assertArrayEquals(message, seen);
        assertArrayEquals(new byte[4096], room, "the room is left alone");
    }

    @Test
    void aReceiveMadeAnewFromASpareForgetsTheArrival() {
        EngineHarness h = new EngineHarness(2, Settings.defaults());
        List<Long> offsets = new ArrayList<>();
        Operation first = h.get(1).receive(ByteBuffer.allocate(4), (offset, src, from, n) -> offsets.add(offset),
                0, 5, CONTEXT);
        h.get(0).send(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), 1, 5, CONTEXT, SendMode.STANDARD);
        h.pump(first::isComplete);
        h.get(1).release(first);
        byte[] room = new byte[4];
        Operation second = h.get(1).receive(ByteBuffer.wrap(room), 0, 5, CONTEXT);
        h.get(0).send(ByteBuffer.wrap(new byte[] {5, 6, 7, 8}), 1, 5, CONTEXT, SendMode.STANDARD);
        h.pump(second::isComplete);
        assertEquals(1, offsets.size(), "only the first receive's message went to the arrival");
        assertArrayEquals(new byte[] {5, 6, 7, 8}, room);
    }
}
