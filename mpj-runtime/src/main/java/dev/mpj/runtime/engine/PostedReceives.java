package dev.mpj.runtime.engine;

import dev.mpj.runtime.spi.Envelopes;

import java.util.ArrayList;
import java.util.List;

import static dev.mpj.api.MpiBackend.ANY_SOURCE;
import static dev.mpj.api.MpiBackend.ANY_TAG;

/**
 * Receives waiting for a message, binned by what they ask for: (context, source or ANY_SOURCE, tag or ANY_TAG).
 * Every receive in a bin accepts the same messages, so an arriving message can only match one of four bin heads
 * (specific, any tag, any source, both); the earliest posted of those, by sequence number, takes it, which keeps
 * MPI's rule that a message matches the first posted receive that accepts it. Posting, matching and cancelling
 * are O(1) at any queue depth. One receive may instead be parked outside the bins ({@link #park}): a blocking
 * receive, which makes no link and costs a match one envelope comparison. Not thread-safe: the engine serialises
 * access.
 */
final class PostedReceives {
    private final MatchBins<ReceiveOperation> bins = new MatchBins<>();
    private long nextSeq;
    private int size;
    /** Binned receives with a wildcard: while there are none, only the specific bin can match. */
    private int wildcards;
    /** The parked receive, or null; it counts in {@link #size} and matches in post order like the binned ones. */
    private ReceiveOperation parked;
    private long parkedSeq;

    void add(ReceiveOperation r) {
        r.postedAt = bins.append(r.context, r.wantSource, r.wantTag, r.link, nextSeq++);
        size++;
        if (isWildcard(r)) {
            wildcards++;
        }
    }

    /**
     * Posts {@code r} without a link when no receive is parked (a blocking receive: it is taken or cancelled before
     * its thread posts another), else in its bin as {@link #add} does.
     */
    void park(ReceiveOperation r) {
        if (parked != null) {
            add(r);
            return;
        }
        parked = r;
        parkedSeq = nextSeq++;
        size++;
    }

    /** Removes and returns the earliest-posted receive that accepts (context, source, tag), or null. */
    ReceiveOperation take(int context, int source, int tag) {
        if (size == 0) {
            return null;
        }
        ReceiveOperation p = parked;
        MatchLink<ReceiveOperation> best = null;
        if (p == null || size > 1) {
            best = bins.head(context, source, tag);
            if (wildcards > 0) {
                best = earlier(best, bins.head(context, source, ANY_TAG));
                best = earlier(best, bins.head(context, ANY_SOURCE, tag));
                best = earlier(best, bins.head(context, ANY_SOURCE, ANY_TAG));
            }
        }
        if (p != null && (best == null || parkedSeq < best.seq)
                && Envelopes.matches(p.context, p.wantSource, p.wantTag, context, source, tag)) {
            unpark();
            return p;
        }
        if (best == null) {
            return null;
        }
        ReceiveOperation r = best.item;
        assert Envelopes.matches(r.context, r.wantSource, r.wantTag, context, source, tag);
        unlink(r);
        return r;
    }

    /** Removes a receive still waiting (cancel); false when it is no longer posted. */
    boolean remove(ReceiveOperation r) {
        if (r == parked) {
            unpark();
            return true;
        }
        if (r.postedAt == null) {
            return false;
        }
        unlink(r);
        return true;
    }

    /** Removes and returns every receive posted on {@code context}. */
    List<ReceiveOperation> takeAll(int context) {
        List<ReceiveOperation> all = new ArrayList<>();
        bins.collect(context, all);
        for (ReceiveOperation r : all) {
            unlink(r);
        }
        ReceiveOperation p = parked;
        if (p != null && p.context == context) {
            unpark();
            all.add(p);
        }
        return all;
    }

    private void unpark() {
        parked = null;
        size--;
    }

    int size() {
        return size;
    }

    private void unlink(ReceiveOperation r) {
        bins.remove(r.postedAt);
        r.postedAt = null;
        size--;
        if (isWildcard(r)) {
            wildcards--;
        }
    }

    private static boolean isWildcard(ReceiveOperation r) {
        return r.wantSource == ANY_SOURCE || r.wantTag == ANY_TAG;
    }

    private static <T> MatchLink<T> earlier(MatchLink<T> a, MatchLink<T> b) {
        return a == null || b != null && b.seq < a.seq ? b : a;
    }
}
