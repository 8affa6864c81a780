package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.Reduction;
import dev.mpj.runtime.engine.ProgressEngine;

import java.nio.ByteBuffer;

/**
 * The non-blocking collectives of {@link MpiBackend}: each builds a {@link Schedule} of rounds over the
 * communicator's collective context, runs what it can at once and leaves the rest to the progress engine, which
 * advances it on every pass. Each collective's messages carry a tag of its own, {@link #tagOf} the sequence
 * number the caller gives (the members agree on it), so several outstanding on one communicator, and the
 * blocking collectives (tags from 1, {@link CollectiveKind}), never match each other's messages, as MPICH keeps
 * them apart by a sequence number in the tag.
 */
public final class NonBlockingCollectives {
    /** The first tag of non-blocking collectives, above every {@link CollectiveKind} tag. */
    static final int FIRST_TAG = 1 << 24;
    /** Sequence numbers wrap at this many: so many collectives would have to be outstanding at once to clash. */
    private static final int SEQUENCE_MASK = FIRST_TAG - 1;

    private final MpiBackend p2p;
    private final ProgressEngine engine;

    public NonBlockingCollectives(MpiBackend p2p, ProgressEngine engine) {
        this.p2p = p2p;
        this.engine = engine;
    }

    /** The tag of the messages of the non-blocking collective numbered {@code sequence} on its communicator. */
    static int tagOf(int sequence) {
        return FIRST_TAG + (sequence & SEQUENCE_MASK);
    }

    public Operation ibarrier(CommSpec comm, int sequence) {
        return Schedules.barrier(schedule(comm, sequence)).start(engine);
    }

    public Operation ibcast(CommSpec comm, int sequence, ByteBuffer data, int root) {
        Collectives.checkRoot(comm, root);
        Peers peers = Peers.of(p2p, comm, tagOf(sequence)).rootedAt(root);
        return Schedules.bcast(new Schedule(peers), data).start(engine);
    }

    public Operation ireduce(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        Collectives.checkRoot(comm, root);
        Collectives.checkVector("ireduce", send, op);
        if (comm.rank() == root) {
            Collectives.checkLength("ireduce", recv, send.remaining());
        }
        Peers peers = Peers.of(p2p, comm, tagOf(sequence));
        Schedule s = new Schedule(op.isCommutative() ? peers.rootedAt(root) : peers);
        return Schedules.reduce(s, send, recv, op, root).start(engine);
    }

    public Operation iallreduce(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv, Reduction op) {
        Collectives.checkVector("iallreduce", send, op);
        Collectives.checkLength("iallreduce", recv, send.remaining());
        return Schedules.allreduce(schedule(comm, sequence), send, recv, op).start(engine);
    }

    public Operation iallgather(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv) {
        Collectives.checkLength("iallgather", recv, (long) send.remaining() * comm.size());
        return Schedules.allgather(schedule(comm, sequence), send, recv).start(engine);
    }

    public Operation ialltoall(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv) {
        Collectives.checkEqualBlocks("ialltoall", send, recv, comm.size());
        return Schedules.alltoall(schedule(comm, sequence), send, recv).start(engine);
    }

    /** A schedule over the members numbered by rank, on this collective's tag. */
    private Schedule schedule(CommSpec comm, int sequence) {
        return new Schedule(Peers.of(p2p, comm, tagOf(sequence)));
    }
}
