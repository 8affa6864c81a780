package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.api.Reduction;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.CollectiveRoom;
import dev.mpj.runtime.node.NodeMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

import static dev.mpj.runtime.node.CollectiveRoom.OWNER_OFFSET;

/**
 * Barrier, bcast, reduce, allreduce, allgather and alltoall through the node segment's {@link CollectiveRoom}, for
 * communicators whose members all live on this node, as MPICH's and Open MPI's shared-memory collectives do: each
 * member puts its contribution in its slot and reads the others' there, so a call costs one write and one wait
 * per member instead of the point-to-point messages of the flat algorithms. Reductions combine in rank order, with
 * the operation's own code, so every datatype and operation (user ones included) gives what the flat path gives.
 *
 * <p>A communicator takes channel {@code context mod CHANNELS} the first time it could use one, by writing its
 * identity (context and members) into the channel's owner word if it is free. The word never changes after, so
 * every member reads the same owner and decides alike; a communicator whose channel is another's runs over
 * point-to-point. A collective of the communicator that fails {@linkplain #retire retires} its channel.
 */
public final class SharedMemoryCollectives {
    private static final NodeChannel NONE = null;

    private final UnsafeBuffer room;
    private final ProgressEngine engine;
    private final NodeMap nodeMap;
    private final int node;
    private final AtomicLong calls = new AtomicLong();
    /** Which collectives come here. */
    private final NodeLocalKinds kinds;

    /** Collectives through {@code region}: those of {@code kinds}, up to 2 KiB per member. */
    public SharedMemoryCollectives(ByteBuffer region, ProgressEngine engine, NodeMap nodeMap, int worldRank,
                                   NodeLocalKinds kinds) {
        this.kinds = kinds;
        this.room = new UnsafeBuffer(region);
        this.engine = engine;
        this.nodeMap = nodeMap;
        this.node = nodeMap.nodeOf(worldRank);
    }

    /** Whether collective {@code kind} on {@code members} runs here when its communicator and size allow. */
    boolean serves(CollectiveKind kind, int members) {
        return kinds.serves(kind, members);
    }

    /** Collectives that ran here so far (for tests and diagnostics). */
    public long calls() {
        return calls.get();
    }

    /** The channel {@code comm} may use, claiming it when free; null when it lies on several nodes or lost it. */
    NodeChannel claim(CommSpec comm) {
        if (!withinNode(comm)) {
            return NONE;
        }
        int base = channelOffset(comm);
        RoomOwner owner = new RoomOwner(room, base + OWNER_OFFSET, comm);
        if (!owner.claim()) {
            return NONE;
        }
        int[] world = comm.worldRanks();
        int localSize = nodeMap.localSize(node);
        int[] slots = new int[world.length];
        for (int i = 0; i < world.length; i++) {
            slots[i] = base + Math.toIntExact(CollectiveRoom.slotOffset(localSize, 0, nodeMap.localRank(world[i])));
        }
        return new NodeChannel(room, engine, comm.collectiveContext(), owner, slots, comm.rank());
    }

    /**
     * Takes {@code comm}'s channel away for good, claimed or not, after one of its collectives failed here: the
     * members' call counters may no longer agree. Done before the failure is passed on, so a communicator made
     * again on the same context and members, which needs messages from this member first, finds it gone.
     */
    void retire(CommSpec comm) {
        if (withinNode(comm)) {
            new RoomOwner(room, channelOffset(comm) + OWNER_OFFSET, comm).retireEvenIfFree();
        }
    }

    private boolean withinNode(CommSpec comm) {
        int[] world = comm.worldRanks();
        return world.length >= 2 && nodeMap.allOn(world, node);
    }

    /** The channel of {@code comm}'s context (a context pair's collective id, so pairs spread over channels). */
    private int channelOffset(CommSpec comm) {
        int channel = Math.floorMod(comm.collectiveContext() >> 1, CollectiveRoom.CHANNELS);
        return Math.toIntExact(channel * CollectiveRoom.channelLength(nodeMap.localSize(node)));
    }

    void barrier(NodeChannel ch) {
        long call = ch.nextCall();
        ch.arrive(call);
        ch.awaitWritten(call);
        ch.finish(call);
        calls.incrementAndGet();
    }

    void bcast(NodeChannel ch, ByteBuffer data, int root) {
        long call = ch.nextCall();
        if (ch.me() == root) {
            ch.write(call, data);
        } else {
            ch.arrive(call);
            ch.awaitWrittenBy(root, call);
            ch.copy(root, call, data.remaining(), 0, data.remaining(), data, 0);
        }
        ch.finish(call);
        calls.incrementAndGet();
    }

    void allgather(NodeChannel ch, ByteBuffer send, ByteBuffer recv) {
        long call = ch.nextCall();
        int block = send.remaining();
        ch.write(call, send);
        ch.awaitWritten(call);
        for (int v = 0; v < ch.size(); v++) {
            if (v != ch.me()) {
                ch.copy(v, call, block, 0, block, recv, v * block);
            }
        }
        ch.finish(call);
        calls.incrementAndGet();
    }

    /**
     * Each member puts its whole send vector in its slot and takes its own block from every other's: the vector,
     * not the block, must fit the slot.
     */
    void alltoall(NodeChannel ch, ByteBuffer send, ByteBuffer recv) {
        long call = ch.nextCall();
        int total = send.remaining();
        int block = total / ch.size();
        int me = ch.me();
        ch.write(call, send);
        Bytes.copy(send, me * block, block, recv, me * block);
        ch.awaitWritten(call);
        for (int v = 0; v < ch.size(); v++) {
            if (v != me) {
                ch.copy(v, call, total, me * block, block, recv, v * block);
            }
        }
        ch.finish(call);
        calls.incrementAndGet();
    }

    void allreduce(NodeChannel ch, ByteBuffer send, ByteBuffer recv, Reduction op) {
        long call = ch.nextCall();
        ch.write(call, send);
        ch.awaitWritten(call);
        fold(ch, call, send, recv, op);
        ch.finish(call);
        calls.incrementAndGet();
    }

    void reduce(NodeChannel ch, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        long call = ch.nextCall();
        ch.write(call, send);
        if (ch.me() == root) {
            ch.awaitWritten(call);
            fold(ch, call, send, recv, op);
        }
        ch.finish(call);
        calls.incrementAndGet();
    }

    /**
     * {@code recv} = d0 op (d1 op (… op d(p−1))): folded from the highest rank down, each lower contribution
     * applied as the left operand, so non-commutative operations see rank order. This member's own contribution is
     * read from {@code own}; the others' are copied out of the room first (into {@code recv}, or into a scratch
     * buffer), so the operation combines heap arrays, as over point-to-point, and never reads the mapping through a
     * view: a pair's fold is then one copy and one combine.
     */
    private static void fold(NodeChannel ch, long call, ByteBuffer own, ByteBuffer recv, Reduction op) {
        int n = own.remaining();
        int me = ch.me();
        int last = ch.size() - 1;
        if (last == me) {
            Bytes.copy(own, recv);
        } else {
            ch.copy(last, call, n, 0, n, recv, 0);
        }
        ByteBuffer theirs = last > 1 || me == last ? Bytes.scratch(n) : null;
        for (int v = last - 1; v >= 0; v--) {
            if (v == me) {
                op.apply(own, recv);
            } else {
                ch.copy(v, call, n, 0, n, theirs, 0);
                op.apply(theirs, recv);
            }
        }
    }
}
