package dev.mpj.runtime.engine;

import dev.mpj.runtime.spi.FrameHeader;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static dev.mpj.api.MpiBackend.ANY_SOURCE;
import static dev.mpj.api.MpiBackend.ANY_TAG;
import static org.junit.jupiter.api.Assertions.*;

/** {@link PostedReceives} and {@link UnexpectedMessages} keep MPI's matching order across wildcard bins. */
class MatchQueuesTest {
    private final PostedReceives posted = new PostedReceives();
    private final UnexpectedMessages unexpected = new UnexpectedMessages();
    private long nextId;

    private ReceiveOperation receive(int source, int tag, int context) {
        return new ReceiveOperation(null, nextId++, null, source, tag, context);
    }

    private UnexpectedMessage message(int source, int tag, int context) {
        return new UnexpectedMessage(FrameHeader.EAGER, context, source, tag, 0, nextId++, null, null);
    }

    @Test
    void arrivingMessageTakesTheEarliestPostedReceiveAmongWildcardBins() {
        ReceiveOperation bothWild = receive(ANY_SOURCE, ANY_TAG, 0);
        ReceiveOperation specific = receive(1, 5, 0);
        ReceiveOperation anyTag = receive(1, ANY_TAG, 0);
        ReceiveOperation anySource = receive(ANY_SOURCE, 5, 0);
        ReceiveOperation specific2 = receive(1, 5, 0);
        for (ReceiveOperation r : List.of(bothWild, specific, anyTag, anySource, specific2)) {
            posted.add(r);
        }
        assertSame(bothWild, posted.take(0, 1, 5));
        assertSame(specific, posted.take(0, 1, 5));
        assertSame(anySource, posted.take(0, 2, 5), "rank 2 matches neither rank 1 bin");
        assertSame(anyTag, posted.take(0, 1, 5));
        assertNull(posted.take(0, 1, 6), "no receive left accepts tag 6");
        assertNull(posted.take(1, 1, 5), "another context sees none of them");
        assertSame(specific2, posted.take(0, 1, 5));
        assertEquals(0, posted.size());
    }

    @Test
    void parkedReceiveMatchesInPostOrderWithTheBinnedOnes() {
        ReceiveOperation specific = receive(1, 5, 0);
        ReceiveOperation parked = receive(ANY_SOURCE, ANY_TAG, 0);
        ReceiveOperation parkedToo = receive(1, 5, 0);
        ReceiveOperation anyTag = receive(1, ANY_TAG, 0);
        posted.add(specific);
        posted.park(parked);
        posted.park(parkedToo); // one receive parks at a time: this one goes to its bin
        posted.add(anyTag);
        assertEquals(4, posted.size());
        assertSame(specific, posted.take(0, 1, 5), "posted before the parked receive");
        assertNull(posted.take(1, 1, 5), "the parked receive asks for context 0 only");
        assertSame(parked, posted.take(0, 1, 5));
        assertSame(parkedToo, posted.take(0, 1, 5));
        posted.park(receive(2, 6, 0));
        assertSame(anyTag, posted.take(0, 1, 6), "the parked receive does not accept rank 1");
        assertEquals(1, posted.size());
        assertEquals(1, posted.takeAll(0).size(), "revocation finds the parked receive");
        assertEquals(0, posted.size());
    }

    @Test
    void cancelledReceiveLeavesFromTheMiddleOfItsBin() {
        ReceiveOperation first = receive(0, 1, 0);
        ReceiveOperation middle = receive(0, 1, 0);
        ReceiveOperation last = receive(0, 1, 0);
        posted.add(first);
        posted.add(middle);
        posted.add(last);
        assertTrue(posted.remove(middle));
        assertFalse(posted.remove(middle), "a receive is removed once");
        assertSame(first, posted.take(0, 0, 1));
        assertSame(last, posted.take(0, 0, 1));
        assertFalse(posted.remove(last), "a matched receive is no longer posted");
        assertEquals(0, posted.size());
    }

    @Test
    void receiveTakesTheEarliestArrivedMessageItAccepts() {
        UnexpectedMessage m0 = message(2, 7, 0);
        UnexpectedMessage m1 = message(1, 5, 0);
        UnexpectedMessage m2 = message(1, 6, 0);
        UnexpectedMessage m3 = message(0, 5, 0);
        UnexpectedMessage m4 = message(1, 5, 1);
        for (UnexpectedMessage m : List.of(m0, m1, m2, m3, m4)) {
            unexpected.add(m);
        }
        assertSame(m1, unexpected.peek(0, 1, ANY_TAG));
        assertSame(m1, unexpected.peek(0, ANY_SOURCE, 5));
        assertSame(m0, unexpected.peek(0, ANY_SOURCE, ANY_TAG));
        assertSame(m4, unexpected.peek(1, ANY_SOURCE, ANY_TAG));
        assertEquals(5, unexpected.size(), "peeking removes nothing");

        assertSame(m2, unexpected.take(0, 1, 6), "a later message leaves from the middle");
        assertSame(m1, unexpected.take(0, 1, ANY_TAG));
        assertSame(m3, unexpected.take(0, ANY_SOURCE, 5));
        assertNull(unexpected.take(0, 1, ANY_TAG));
        assertSame(m0, unexpected.take(0, ANY_SOURCE, ANY_TAG));
        assertNull(unexpected.take(0, ANY_SOURCE, ANY_TAG));
        assertSame(m4, unexpected.take(1, 1, 5));
        assertEquals(0, unexpected.size());
    }

    /**
     * Thousands of arrivals, posts (specific and every wildcard mix), probes and cancels over 2 contexts, 3
     * sources and 4 tags, driven as the engine drives the queues, against the brute-force reference.
     */
    @Test
    void randomOperationsMatchAsTheBruteForceReference() {
        SplittableRandom random = new SplittableRandom(20240521);
        ReferenceMatcher reference = new ReferenceMatcher();
        Map<Long, ReceiveOperation> waiting = new HashMap<>();
        int matches = 0;
        for (int step = 0; step < 20_000; step++) {
            int context = random.nextInt(2);
            int source = random.nextInt(3);
            int tag = random.nextInt(4);
            int op = random.nextInt(10);
            if (op < 4) {
                UnexpectedMessage m = message(source, tag, context);
                long expected = reference.arrive(new ReferenceMatcher.Entry(m.cookie, context, source, tag));
                ReceiveOperation r = posted.take(context, source, tag);
                if (r == null) {
                    unexpected.add(m);
                }
                assertEquals(expected, r == null ? -1 : r.id, "step " + step + ": receive matched by a message");
                if (r != null) {
                    waiting.remove(r.id);
                    matches++;
                }
            } else if (op < 8) {
                int wantSource = random.nextInt(4) == 0 ? ANY_SOURCE : source;
                int wantTag = random.nextInt(4) == 0 ? ANY_TAG : tag;
                ReceiveOperation r = receive(wantSource, wantTag, context);
                long expected = reference.post(new ReferenceMatcher.Entry(r.id, context, wantSource, wantTag));
                UnexpectedMessage m = unexpected.take(context, wantSource, wantTag);
                if (m == null) {
                    if (step % 3 == 0) {
                        posted.park(r); // a blocking receive's post, binned when another is parked
                    } else {
                        posted.add(r);
                    }
                    waiting.put(r.id, r);
                }
                assertEquals(expected, m == null ? -1 : m.cookie, "step " + step + ": message taken by a receive");
                matches += m == null ? 0 : 1;
            } else if (op < 9) {
                int wantSource = random.nextBoolean() ? ANY_SOURCE : source;
                int wantTag = random.nextBoolean() ? ANY_TAG : tag;
                ReferenceMatcher.Entry expected =
                        reference.peek(new ReferenceMatcher.Entry(-1, context, wantSource, wantTag));
                UnexpectedMessage m = unexpected.peek(context, wantSource, wantTag);
                assertEquals(expected == null ? -1 : expected.id(), m == null ? -1 : m.cookie, "step " + step);
            } else if (!reference.posted().isEmpty()) {
                List<ReferenceMatcher.Entry> all = reference.posted();
                long id = all.get(random.nextInt(all.size())).id();
                assertTrue(reference.cancel(id));
                assertTrue(posted.remove(waiting.remove(id)), "step " + step + ": cancel");
            }
            assertEquals(reference.posted().size(), posted.size());
            assertEquals(reference.unexpectedCount(), unexpected.size());
        }
        assertTrue(matches > 5_000, "the run exercised matching: " + matches);
    }

    @Test
    void deepQueueMatchesInPostOrder() {
        List<ReceiveOperation> receives = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            ReceiveOperation r = receive(i % 7, i % 100, 3);
            receives.add(r);
            posted.add(r);
        }
        for (ReceiveOperation r : receives) {
            assertSame(r, posted.take(3, r.wantSource, r.wantTag));
        }
        assertEquals(0, posted.size());
        assertNull(posted.take(3, 0, 0));
    }
}
