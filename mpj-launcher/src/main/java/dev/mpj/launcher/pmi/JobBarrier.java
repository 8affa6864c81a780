package dev.mpj.launcher.pmi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job's PMI barrier, one for both dialects ({@code barrier_in} and {@code kvs-fence}): it completes when
 * every rank has entered it, publishes what was put since the last one, and answers each rank in its own dialect,
 * in the order they entered. Once a rank has finalized no barrier can complete, so entering one fails. A node
 * agent's server serves some ranks only: once they have all entered, their puts go {@link PmiUpstream up the
 * tree}, and the barrier completes when the whole job's puts come back ({@link #complete}).
 */
final class JobBarrier {
    private final int size;
    private final JobKvs kvs;
    private final PmiUpstream upstream;
    /** The ranks' connections in the barrier, in the order they entered, each with the reply it gets. */
    private final Map<PmiClientConnection, Object> waiting = new LinkedHashMap<>();
    private int firstFinalizedRank = -1;

    /** @param size the ranks this server serves; @param upstream where their puts go, null to complete here */
    JobBarrier(int size, JobKvs kvs, PmiUpstream upstream) {
        this.size = size;
        this.kvs = kvs;
        this.upstream = upstream;
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
            if (upstream != null) {
                upstream.fenceEntered(kvs.takeStaged());
            } else {
                kvs.publish();
                release();
            }
        }
    }

    /** The whole job's barrier completed upstream with {@code published}: publishes it and answers the ranks. */
    void complete(Map<String, String> published) {
        kvs.publish(published);
        release();
    }

    private void release() {
        List<Map.Entry<PmiClientConnection, Object>> released = new ArrayList<>(waiting.entrySet());
        waiting.clear(); // before sending: a failed write closes its connection, which leaves the barrier
        for (Map.Entry<PmiClientConnection, Object> e : released) {
            e.getKey().send(e.getValue());
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
