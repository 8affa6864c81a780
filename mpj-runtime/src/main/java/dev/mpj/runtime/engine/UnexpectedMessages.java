package dev.mpj.runtime.engine;

import dev.mpj.runtime.spi.Envelopes;

import static dev.mpj.api.MpiBackend.ANY_SOURCE;
import static dev.mpj.api.MpiBackend.ANY_TAG;

/**
 * Messages that arrived before a receive accepted them. Each message is linked, in arrival order, into the four
 * bins of the receives that could ask for it: (context, source, tag), (context, source, ANY_TAG),
 * (context, ANY_SOURCE, tag) and (context, ANY_SOURCE, ANY_TAG). So whatever a receive asks for, the head of one
 * bin is the earliest-arrived message it accepts, as MPI's non-overtaking rule requires; adding, matching and
 * removing are O(1) at any queue depth. Not thread-safe: the engine serialises access.
 */
final class UnexpectedMessages {
    private final MatchBins<UnexpectedMessage> bins = new MatchBins<>();
    private long nextSeq;
    private int size;

    void add(UnexpectedMessage m) {
        long seq = nextSeq++;
        m.specific = bins.append(m.context, m.source, m.tag, m, seq);
        m.anyTag = bins.append(m.context, m.source, ANY_TAG, m, seq);
        m.anySource = bins.append(m.context, ANY_SOURCE, m.tag, m, seq);
        m.anySourceAnyTag = bins.append(m.context, ANY_SOURCE, ANY_TAG, m, seq);
        size++;
    }

    /** The earliest-arrived message a receive of (context, source, tag) accepts, left in place; or null. */
    UnexpectedMessage peek(int context, int source, int tag) {
        if (size == 0) {
            return null;
        }
        MatchLink<UnexpectedMessage> head = bins.head(context, source, tag);
        if (head == null) {
            return null;
        }
        UnexpectedMessage m = head.item;
        assert Envelopes.matches(context, source, tag, m.context, m.source, m.tag);
        return m;
    }

    /** Removes and returns what {@link #peek} would return. */
    UnexpectedMessage take(int context, int source, int tag) {
        UnexpectedMessage m = peek(context, source, tag);
        if (m != null) {
            bins.remove(m.specific);
            bins.remove(m.anyTag);
            bins.remove(m.anySource);
            bins.remove(m.anySourceAnyTag);
            size--;
        }
        return m;
    }

    int size() {
        return size;
    }
}
