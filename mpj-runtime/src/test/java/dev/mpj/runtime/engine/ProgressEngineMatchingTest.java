package dev.mpj.runtime.engine;

import dev.mpj.api.Envelope;
import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static dev.mpj.api.MpiBackend.ANY_SOURCE;
import static dev.mpj.api.MpiBackend.ANY_TAG;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Ranks 0, 1 and 2 send to rank 3, which posts specific and wildcard receives; every receive must get the message
 * the brute-force {@link ReferenceMatcher} gives it, over eager and rendezvous, receives posted first or last.
 */
@Timeout(60)
class ProgressEngineMatchingTest {
    private static final int EAGER = 1024;
    private static final int CHUNK = 1024;
    private static final int RECEIVER = 3;
    private final EngineHarness h = new EngineHarness(4, EAGER, CHUNK);
    private final ReferenceMatcher reference = new ReferenceMatcher();
    /** Each message's id, by the receive the reference says gets it. */
    private final Map<Operation, Long> expectedMessage = new HashMap<>();
    private final Map<Long, Operation> receives = new HashMap<>();
    private final List<Operation> sends = new ArrayList<>();
    private long nextId;

    /** A message of {@code size} bytes (at least 8) that starts with its id. */
    private static ByteBuffer payload(long id, int size) {
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(id);
        while (b.hasRemaining()) {
            b.put((byte) (id * 31 + b.position()));
        }
        return b.flip();
    }

    private static int size(long id, boolean large) {
        return (large ? EAGER + 1 : 8) + (int) (id % 100);
    }

    private void send(int source, int tag, int context, boolean large) {
        long id = nextId++;
        sends.add(h.get(source).send(payload(id, size(id, large)), RECEIVER, tag, context, SendMode.STANDARD));
        h.get(RECEIVER).poll(); // the message has arrived, in send order
        long r = reference.arrive(new ReferenceMatcher.Entry(id, context, source, tag));
        if (r >= 0) {
            expectedMessage.put(receives.get(r), id);
        }
    }

    private Operation receive(int source, int tag, int context) {
        long id = nextId++;
        Operation op = h.get(RECEIVER).receive(null, source, tag, context);
        receives.put(id, op);
        long m = reference.post(new ReferenceMatcher.Entry(id, context, source, tag));
        if (m >= 0) {
            expectedMessage.put(op, m);
        }
        return op;
    }

    /** Completes every matched transfer, then checks each receive got the message the reference names. */
    private void checkAll() {
        h.pump(() -> expectedMessage.keySet().stream().allMatch(Operation::isComplete)
                && sends.stream().allMatch(Operation::isComplete));
        for (Map.Entry<Operation, Long> e : expectedMessage.entrySet()) {
            Operation r = e.getKey();
            long id = e.getValue();
            ByteBuffer got = r.buffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(id, got.getLong(0), "receive of (" + r.source() + ", " + r.tag() + ") got another message");
            assertEquals(payload(id, r.byteCount()), got.rewind());
        }
    }

    @ParameterizedTest(name = "receives posted first: {0}")
    @ValueSource(booleans = {true, false})
    void mixedWildcardReceivesGetMessagesInArrivalAndPostOrder(boolean receivesFirst) {
        int[][] messages = {{0, 1}, {1, 1}, {2, 2}, {0, 2}, {1, 1}, {2, 1}, {0, 1}, {1, 2}, {2, 2}};
        int[][] wanted = {{ANY_SOURCE, 2}, {0, ANY_TAG}, {1, 1}, {ANY_SOURCE, ANY_TAG}, {2, ANY_TAG},
                {ANY_SOURCE, 1}, {0, ANY_TAG}, {1, ANY_TAG}, {ANY_SOURCE, ANY_TAG}};
        List<Operation> posted = new ArrayList<>();
        if (receivesFirst) {
            for (int[] w : wanted) {
                posted.add(receive(w[0], w[1], 0));
            }
        }
        for (int i = 0; i < messages.length; i++) {
            send(messages[i][0], messages[i][1], 0, i % 3 == 1);
        }
        if (!receivesFirst) {
            for (int[] w : wanted) {
                posted.add(receive(w[0], w[1], 0));
            }
        }
        checkAll();
        assertEquals(wanted.length, expectedMessage.size(), "every receive matched a message");
        // The order, spelled out: which message (by its place in `messages`) each receive gets, either way.
        int[] order = {2, 0, 1, 3, 5, 4, 6, 7, 8};
        long firstMessageId = receivesFirst ? wanted.length : 0;
        for (int i = 0; i < posted.size(); i++) {
            assertEquals(firstMessageId + order[i], expectedMessage.get(posted.get(i)), "receive " + i);
        }
    }

    @Test
    void probeSeesTheEarliestMatchingMessageAndLeavesIt() {
        send(2, 4, 0, false);
        send(1, 3, 0, true);
        send(1, 4, 0, false);
        Envelope e = h.get(RECEIVER).probe(ANY_SOURCE, 4, 0);
        assertEquals(2, e.source());
        e = h.get(RECEIVER).probe(1, ANY_TAG, 0);
        assertEquals(3, e.tag());
        assertEquals(size(1, true), e.byteCount(), "a rendezvous message probes with its full length");
        assertNull(h.get(RECEIVER).probe(0, ANY_TAG, 0));
        assertEquals(3, h.get(RECEIVER).unexpectedCount());
        receive(1, 4, 0); // a later message leaves from the middle
        receive(ANY_SOURCE, ANY_TAG, 0);
        receive(ANY_SOURCE, ANY_TAG, 0);
        checkAll();
        assertEquals(0, h.get(RECEIVER).unexpectedCount());
    }

    /**
     * Thousands of sends (eager and rendezvous) from 3 ranks over 2 contexts and 4 tags, receives with every
     * wildcard mix, probes and cancels, interleaved at random with a fixed seed, against the reference.
     */
    @Test
    void randomTrafficMatchesAsTheBruteForceReference() {
        SplittableRandom random = new SplittableRandom(7_340_033);
        for (int step = 0; step < 6_000; step++) {
            int context = random.nextInt(2);
            int source = random.nextInt(3);
            int tag = random.nextInt(4);
            int op = random.nextInt(10);
            if (op < 4) {
                send(source, tag, context, random.nextInt(8) == 0);
            } else if (op < 8) {
                receive(random.nextInt(3) == 0 ? ANY_SOURCE : source, random.nextInt(3) == 0 ? ANY_TAG : tag,
                        context);
            } else if (op < 9) {
                int wantSource = random.nextBoolean() ? ANY_SOURCE : source;
                int wantTag = random.nextBoolean() ? ANY_TAG : tag;
                ReferenceMatcher.Entry m = reference.peek(new ReferenceMatcher.Entry(-1, context, wantSource, wantTag));
                Envelope e = h.get(RECEIVER).probe(wantSource, wantTag, context);
                if (m == null) {
                    assertNull(e, "step " + step);
                } else {
                    assertNotNull(e, "step " + step);
                    assertEquals(m.source(), e.source(), "step " + step);
                    assertEquals(m.tag(), e.tag(), "step " + step);
                }
            } else if (!reference.posted().isEmpty()) {
                List<ReferenceMatcher.Entry> waiting = reference.posted();
                long id = waiting.get(random.nextInt(waiting.size())).id();
                reference.cancel(id);
                Operation r = receives.get(id);
                r.cancel();
                assertTrue(r.isCancelled(), "step " + step + ": a waiting receive cancels");
            }
            if (step % 500 == 0) {
                h.pumpAll(); // rendezvous transfers move on while matching goes on
            }
        }
        assertEquals(reference.unexpectedCount(), h.get(RECEIVER).unexpectedCount());
        assertTrue(expectedMessage.size() > 1_000, "the run exercised matching: " + expectedMessage.size());
        for (ReferenceMatcher.Entry r : List.copyOf(reference.posted())) {
            receives.get(r.id()).cancel();
            reference.cancel(r.id());
        }
        for (int context = 0; context < 2; context++) { // so every rendezvous send completes
            while (reference.peek(new ReferenceMatcher.Entry(-1, context, ANY_SOURCE, ANY_TAG)) != null) {
                receive(ANY_SOURCE, ANY_TAG, context);
            }
        }
        assertEquals(0, h.get(RECEIVER).unexpectedCount());
        checkAll();
    }
}
