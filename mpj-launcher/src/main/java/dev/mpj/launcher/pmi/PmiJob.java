package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.wire.ProcessMapping;

/**
 * What the PMI server knows of its job, whatever dialect each rank speaks: the placement, the KVS name, which
 * connection holds which rank, the {@link JobKvs KVS}, the {@link JobBarrier barrier}, the PMI-2
 * {@link JobRing ring} and the {@link JobAllgather allgather}; and what both dialects do alike: identify a
 * rank, finalize, abort. A node agent's server ({@code node} ≥ 0) serves the ranks of one node of the mapping
 * only, and its collectives complete {@link PmiUpstream up the tree}. Used on the server thread only.
 */
final class PmiJob {
    private final ProcessMapping mapping;
    private final String kvsName;
    private final PmiServer.Listener listener;
    private final int node;
    private final PmiClientConnection[] connectionOfRank;
    private final JobKvs kvs;
    private final JobBarrier barrier;
    private final JobRing ring;
    private final JobAllgather allgather;
    private SharedKvsPublisher shared;

    /**
     * @param node     the node whose ranks are served, or -1 for every rank
     * @param upstream where the collectives go once the served ranks have entered; null (with node -1) to
     *                 complete them here
     */
    PmiJob(ProcessMapping mapping, String kvsName, PmiServer.Listener listener, int node, PmiUpstream upstream) {
        this.mapping = mapping;
        this.kvsName = kvsName;
        this.listener = listener;
        this.node = node;
        this.connectionOfRank = new PmiClientConnection[mapping.size()];
        this.kvs = new JobKvs(mapping);
        int served = servedRanks(mapping, node);
        this.barrier = new JobBarrier(served, kvs, upstream);
        this.ring = new JobRing(mapping.size(), served, upstream);
        this.allgather = new JobAllgather(mapping.size(), served, upstream);
    }

    /** How many ranks a server of {@code node} serves (-1: all). */
    static int servedRanks(ProcessMapping mapping, int node) {
        if (node < 0) {
            return mapping.size();
        }
        int served = 0;
        for (int rank = 0; rank < mapping.size(); rank++) {
            if (mapping.nodeOf(rank) == node) {
                served++;
            }
        }
        return served;
    }

    ProcessMapping mapping() {
        return mapping;
    }

    String kvsName() {
        return kvsName;
    }

    PmiServer.Listener listener() {
        return listener;
    }

    JobKvs kvs() {
        return kvs;
    }

    JobBarrier barrier() {
        return barrier;
    }

    JobRing ring() {
        return ring;
    }

    JobAllgather allgather() {
        return allgather;
    }

    /** From now on every barrier also publishes into {@code publisher}'s table, whose path the ranks are told. */
    void shareKvs(SharedKvsPublisher publisher) {
        shared = publisher;
        kvs.publishTo(publisher);
    }

    /** The shared table's path, announced in {@code maxes} and {@code fullinit-response}, or null without one. */
    String sharedKvsPath() {
        return shared == null ? null : shared.file().toString();
    }

    /** Gives {@code c} the rank it claims, unless the rank is out of range or taken; returns whether it did. */
    boolean identify(PmiClientConnection c, int id) {
        if (id < 0 || id >= mapping.size()) {
            c.fail("claimed pmiid=" + id + " in a job of " + mapping.size() + " ranks");
            return false;
        }
        if (node >= 0 && mapping.nodeOf(id) != node) {
            c.fail("claimed pmiid=" + id + ", a rank of node " + mapping.nodeOf(id) + ", from the server of node "
                    + node);
            return false;
        }
        if (connectionOfRank[id] != null) {
            c.fail("claimed pmiid=" + id + ", which another connection already holds");
            return false;
        }
        c.identify(id);
        connectionOfRank[id] = c;
        listener.rankConnected(id);
        return true;
    }

    /** Both dialects; {@code ack} is {@code finalize_ack} or {@code finalize-response}. */
    void finalize(PmiClientConnection c, Object ack) {
        c.markFinalized();
        barrier.rankFinalized(c.rank());
        ring.rankFinalized(c.rank());
        allgather.rankFinalized(c.rank());
        listener.rankFinalized(c.rank());
        c.send(ack);
        int waiting = barrier.waiting();
        if (waiting > 0) {
            c.fail("finalized while " + waiting + " rank(s) wait in a PMI barrier that can now never complete");
        } else if (ring.waiting() > 0) {
            c.fail("finalized while " + ring.waiting() + " rank(s) wait in the PMI ring that can now never"
                    + " complete");
        } else if (allgather.waiting() > 0) {
            c.fail("finalized while " + allgather.waiting() + " rank(s) wait in the PMI allgather that can now never"
                    + " complete");
        }
    }

    /** Both dialects: {@code exitCodeField} is the request's {@code exitcode}, 1 when absent. */
    void abort(PmiClientConnection c, String exitCodeField) {
        int exitCode;
        try {
            exitCode = exitCodeField == null ? 1 : Integer.parseInt(exitCodeField.trim());
        } catch (NumberFormatException e) {
            c.fail("sent an abort whose exitcode is not an integer: '" + exitCodeField + "'");
            return;
        }
        c.markAborted();
        listener.rankAborted(c.rank(), exitCode);
        // no reply, as Hydra and Slurm: the job is ending
    }

    /** {@code c} closed: it waits for nothing any more. */
    void forget(PmiClientConnection c) {
        barrier.leave(c);
        ring.leave(c);
        allgather.leave(c);
        kvs.forget(c);
    }
}
