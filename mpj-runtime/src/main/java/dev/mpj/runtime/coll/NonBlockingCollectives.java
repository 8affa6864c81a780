package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.Reduction;
import dev.mpj.runtime.engine.ProgressEngine;

import java.nio.ByteBuffer;

/**
 * The non-blocking collectives of {@link MpiBackend}: each builds the {@link Schedule} of the blocking
 * collectives' short-message algorithm (dissemination barrier, binomial bcast and reduce, reduce then bcast for
 * allreduce, ring allgather, alltoall posted at once), runs what it can at once and leaves the rest to the
 * progress engine, which advances it on every pass. Each collective's messages carry a tag of its own, {@link #tagOf} the sequence
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
        return DisseminationBarrier.rounds(schedule(comm, sequence)).start(engine);
    }

    public Operation ibcast(CommSpec comm, int sequence, ByteBuffer data, int root) {
        Collectives.checkRoot(comm, root);
        Peers peers = Peers.of(p2p, comm, tagOf(sequence)).rootedAt(root);
        return BinomialBcast.rounds(new Schedule(peers), data).start(engine);
    }

    public Operation ireduce(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        Collectives.checkRoot(comm, root);
        Collectives.checkVector("ireduce", send, op);
        if (comm.rank() == root) {
            Collectives.checkLength("ireduce", recv, send.remaining());
        }
        Schedule s = new Schedule(BinomialReduce.tree(Peers.of(p2p, comm, tagOf(sequence)), op, root));
        return BinomialReduce.rounds(s, send, recv, op, root).start(engine);
    }

    public Operation iallreduce(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv, Reduction op) {
        Collectives.checkVector("iallreduce", send, op);
        Collectives.checkLength("iallreduce", recv, send.remaining());
        // a reduce to rank 0 (its tree numbered by rank whatever the op), then a broadcast from it
        Schedule s = BinomialReduce.rounds(schedule(comm, sequence), send, recv, op, 0);
        return BinomialBcast.rounds(s, recv).start(engine);
    }

    public Operation iallgather(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv) {
        Collectives.checkLength("iallgather", recv, (long) send.remaining() * comm.size());
        ByteBuffer[] blocks = RingAllgather.blocks(recv, Alltoall.equalBlocks(comm.size(), send.remaining()));
        Bytes.copy(send, blocks[comm.rank()]);
        return RingAllgather.rounds(schedule(comm, sequence), blocks).start(engine);
    }

    public Operation ialltoall(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv) {
        Collectives.checkEqualBlocks("ialltoall", send, recv, comm.size());
        int[] start = Alltoall.equalBlocks(comm.size(), send.remaining() / comm.size());
        Schedule s = schedule(comm, sequence);
        return LinearV.alltoallvRounds(s, RingAllgather.blocks(send, start), RingAllgather.blocks(recv, start))
                .start(engine);
    }

    /** A schedule over the members numbered by rank, on this collective's tag. */
    private Schedule schedule(CommSpec comm, int sequence) {
        return new Schedule(Peers.of(p2p, comm, tagOf(sequence)));
    }
}
