package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.wire.ProcessMapping;

/**
 * What the PMI server knows of its job, whatever dialect each rank speaks: the placement, the KVS name, which
 * connection holds which rank, the {@link JobKvs KVS}, the {@link JobBarrier barrier}, the PMI-2
 * {@link JobRing ring} and the {@link JobAllgather allgather}; and what both dialects do alike: identify a
 * rank, finalize, abort. Used on the server thread only.
 */
final class PmiJob {
    private final ProcessMapping mapping;
    private final String kvsName;
    private final PmiServer.Listener listener;
    private final PmiClientConnection[] connectionOfRank;
    private final JobKvs kvs;
    private final JobBarrier barrier;
    private final JobRing ring;
    private final JobAllgather allgather;
    private SharedKvsPublisher shared;

    PmiJob(ProcessMapping mapping, String kvsName, PmiServer.Listener listener) {
        this.mapping = mapping;
        this.kvsName = kvsName;
        this.listener = listener;
        this.connectionOfRank = new PmiClientConnection[mapping.size()];
        this.kvs = new JobKvs(mapping);
        this.barrier = new JobBarrier(mapping.size(), kvs);
        this.ring = new JobRing(mapping.size());
        this.allgather = new JobAllgather(mapping.size());
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
