package dev.mpj.launcher.pmi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job's PMI barrier, one for both dialects ({@code barrier_in} and {@code kvs-fence}): it completes when
 * every rank has entered it, publishes what was put since the last one, and answers each rank in its own dialect,
 * in the order they entered. Once a rank has finalized no barrier can complete, so entering one fails.
 */
final class JobBarrier {
    private final int size;
    private final JobKvs kvs;
    /** The ranks' connections in the barrier, in the order they entered, each with the reply it gets. */
    private final Map<PmiClientConnection, Object> waiting = new LinkedHashMap<>();
    private int firstFinalizedRank = -1;

    JobBarrier(int size, JobKvs kvs) {
        this.size = size;
        this.kvs = kvs;
    }

    /** {@code c} enters; {@code reply} ({@code barrier_out} or a {@code kvs-fence-response}) is sent when all have. */
    void enter(PmiClientConnection c, Object reply) {
        if (waiting.containsKey(c)) {
            c.fail("entered the PMI barrier twice");
            return;
        }
        if (firstFinalizedRank >= 0) {
            c.fail("entered a PMI barrier after rank " + firstFinalizedRank + " had finalized; it could never "
                    + "complete");
            return;
        }
        waiting.put(c, reply);
        if (waiting.size() == size) {
            kvs.publish();
            List<Map.Entry<PmiClientConnection, Object>> released = new ArrayList<>(waiting.entrySet());
            waiting.clear(); // before sending: a failed write closes its connection, which leaves the barrier
            for (Map.Entry<PmiClientConnection, Object> e : released) {
                e.getKey().send(e.getValue());
            }
        }
    }

    /** How many ranks wait in the barrier. */
    int waiting() {
        return waiting.size();
    }

    void rankFinalized(int rank) {
        if (firstFinalizedRank < 0) {
            firstFinalizedRank = rank;
        }
    }

    /** {@code c} closed: it no longer counts as entered. */
    void leave(PmiClientConnection c) {
        waiting.remove(c);
    }
}
