package dev.mpj.runtime.engine;

import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Unexpected eager messages of mixed sizes held in pooled buffers: a buffer goes back to the pool only once its
 * receive has copied it out, so messages that arrive later, into buffers given back, never overwrite one not yet
 * received. Every payload is checked, byte by byte.
 */
@Timeout(60)
class ProgressEngineUnexpectedPayloadTest {
    private static final int[] SIZES = {1, 32, 33, 64, 65, 100, 1000, 4096, 4097, 40_000, 65_536};
    private static final int PER_PHASE = 60;
    private static final int CONTEXT = 3;

    private static ByteBuffer payload(int tag) {
        int size = SIZES[tag % SIZES.length];
        ByteBuffer b = ByteBuffer.allocate(size);
        for (int i = 0; i < size; i++) {
            b.put(i, (byte) (tag * 31 + i * 7 + 1));
        }
        return b;
    }

    private static void assertPayload(int tag, ByteBuffer room, Operation r) {
        ByteBuffer want = payload(tag);
        assertEquals(want.limit(), r.byteCount(), "length of message " + tag);
        for (int i = 0; i < want.limit(); i++) {
            if (want.get(i) != room.get(i)) {
                fail("message " + tag + " differs at byte " + i + " of " + want.limit());
            }
        }
    }

    /** Sends tags [from, to) from {@code source} to rank 1; each arrives before any receive is posted for it. */
    private static void sendUnexpected(EngineHarness h, int source, int from, int to) {
        for (int tag = from; tag < to; tag++) {
            assertTrue(h.get(source).send(payload(tag), 1, tag, CONTEXT, SendMode.STANDARD).isComplete(),
                    "message " + tag + " went eagerly");
        }
        h.pumpAll();
    }

    private static void receiveAndCheck(EngineHarness h, int source, List<Integer> tags) {
        for (int tag : tags) {
            ByteBuffer room = ByteBuffer.allocate(65_536);
            Operation r = h.get(1).receive(room, source, tag, CONTEXT);
            h.pump(r::isComplete);
            assertNull(r.error());
            assertPayload(tag, room, r);
        }
    }

    @ParameterizedTest(name = "from rank {0} to rank 1")
    @ValueSource(ints = {0, 1})
    void messagesArrivingIntoReusedBuffersLeaveTheUnreceivedOnesIntact(int source) {
        EngineHarness h = new EngineHarness(2, Settings.defaults()
                .with(Setting.EAGER_THRESHOLD, "65536")
                .with(Setting.EAGER_CREDIT, Integer.toString(64 << 20)));
        sendUnexpected(h, source, 0, PER_PHASE);
        assertEquals(PER_PHASE, h.get(1).unexpectedCount());

        List<Integer> even = new ArrayList<>();
        List<Integer> rest = new ArrayList<>();
        for (int tag = 0; tag < PER_PHASE; tag++) {
            (tag % 2 == 0 ? even : rest).add(tag);
        }
        receiveAndCheck(h, source, even);
        assertTrue(h.get(1).pooledPayloadBytes() > 0, "received payloads' buffers are kept for the next ones");

        sendUnexpected(h, source, PER_PHASE, 2 * PER_PHASE);
        for (int tag = PER_PHASE; tag < 2 * PER_PHASE; tag++) {
            rest.add(tag);
        }
        Collections.shuffle(rest, new Random(25));
        receiveAndCheck(h, source, rest);
        assertEquals(0, h.get(1).unexpectedCount());
    }
}
