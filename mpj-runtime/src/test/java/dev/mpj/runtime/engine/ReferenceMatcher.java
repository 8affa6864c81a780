package dev.mpj.runtime.engine;

import dev.mpj.runtime.spi.Envelopes;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * MPI matching by brute force, the rule in its plainest form: an arriving message takes the first posted receive
 * that accepts it, a posted receive takes the first arrived message it accepts, both lists scanned in order.
 * Entries are named by ids; -1 means "none, queued".
 */
final class ReferenceMatcher {
    record Entry(long id, int context, int source, int tag) {
    }

    private final List<Entry> posted = new ArrayList<>();
    private final List<Entry> unexpected = new ArrayList<>();

    /** A message arrives: the id of the receive it completes, or -1 when it is queued as unexpected. */
    long arrive(Entry message) {
        for (Iterator<Entry> it = posted.iterator(); it.hasNext(); ) {
            Entry r = it.next();
            if (accepts(r, message)) {
                it.remove();
                return r.id;
            }
        }
        unexpected.add(message);
        return -1;
    }

    /** A receive is posted: the id of the message it takes, or -1 when it is queued as posted. */
    long post(Entry receive) {
        Entry m = peek(receive);
        if (m != null) {
            unexpected.remove(m);
            return m.id;
        }
        posted.add(receive);
        return -1;
    }

    /** The message a receive would take now, left queued; or null. */
    Entry peek(Entry receive) {
        for (Entry m : unexpected) {
            if (accepts(receive, m)) {
                return m;
            }
        }
        return null;
    }

    boolean cancel(long receiveId) {
        return posted.removeIf(r -> r.id == receiveId);
    }

    List<Entry> posted() {
        return posted;
    }

    int unexpectedCount() {
        return unexpected.size();
    }

    private static boolean accepts(Entry receive, Entry message) {
        return Envelopes.matches(receive.context, receive.source, receive.tag, message.context, message.source,
                message.tag);
    }
}
