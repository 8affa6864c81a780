package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.api.MpiBackend;
import dev.mpj.runtime.node.NodeMap;

import java.util.Arrays;

/**
 * What the blocking collectives keep of one communicator between calls, so a call does not rebuild it: the
 * members as each kind of collective numbers them ({@link Peers}, immutable) and the node layout. Made for one
 * set of members and one caller rank; a context freed and reused by another communicator no longer
 * {@link #describes} it and is replaced.
 */
final class CommunicatorCache {
    private static final CollectiveKind[] KINDS = CollectiveKind.values();

    private final int context;
    private final int[] worldRanks;
    private final int rank;
    private final Peers[] peers = new Peers[KINDS.length];
    private NodeLayout layout;
    private NodeChannel channel;
    private boolean channelClaimed;
    private PairSlots pairSlots;
    private boolean pairSlotsClaimed;
    private PairFold pairFold;
    private PairAlltoall pairAlltoall;

    CommunicatorCache(CommSpec comm) {
        this.context = comm.collectiveContext();
        this.worldRanks = comm.worldRanks();
        this.rank = comm.rank();
    }

    /** Whether this cache was made for a communicator of exactly these members and this caller. */
    boolean describes(CommSpec comm) {
        int[] world = comm.worldRanks();
        return comm.rank() == rank && (world == worldRanks || Arrays.equals(world, worldRanks));
    }

    /** The collective context of the communicator this cache was made for. */
    int context() {
        return context;
    }

    /** The members, by rank, on the context and tag of {@code kind}. */
    Peers peers(MpiBackend backend, CommSpec comm, CollectiveKind kind) {
        Peers p = peers[kind.ordinal()];
        if (p == null) {
            p = Peers.of(backend, comm, kind);
            peers[kind.ordinal()] = p;
        }
        return p;
    }

    /** The communicator's node-local channel, claimed at the first call that could use one; null if none. */
    NodeChannel channel(CommSpec comm, SharedMemoryCollectives shm) {
        if (!channelClaimed) {
            channel = shm.claim(comm);
            channelClaimed = true;
        }
        NodeChannel ch = channel;
        return ch != null && ch.usable() ? ch : null;
    }

    /** The communicator's room for long allreduces of a pair, claimed at the first call that could use it; null if none. */
    PairFold pairFold(CommSpec comm, PairFoldRoom room) {
        PairSlots slots = pairSlots(comm, room);
        if (slots == null) {
            return null;
        }
        if (pairFold == null) {
            pairFold = new PairFold(slots);
        }
        return pairFold;
    }

    /** The communicator's room for alltoalls of long blocks of a pair, as {@link #pairFold}. */
    PairAlltoall pairAlltoall(CommSpec comm, PairFoldRoom room) {
        PairSlots slots = pairSlots(comm, room);
        if (slots == null) {
            return null;
        }
        if (pairAlltoall == null) {
            pairAlltoall = new PairAlltoall(slots);
        }
        return pairAlltoall;
    }

    /**
     * The pair's slots in the room, claimed once for the communicator's allreduces and alltoalls alike; null if it
     * has none, or no longer: a failed collective takes the room away for good.
     */
    private PairSlots pairSlots(CommSpec comm, PairFoldRoom room) {
        if (!pairSlotsClaimed) {
            pairSlots = room.claim(comm);
            pairSlotsClaimed = true;
        }
        PairSlots slots = pairSlots;
        return slots != null && slots.usable() ? slots : null;
    }

    /** How the members fall on the nodes of {@code map}. */
    NodeLayout layout(CommSpec comm, NodeMap map) {
        NodeLayout l = layout;
        if (l == null) {
            l = NodeLayout.of(comm, map);
            layout = l;
        }
        return l;
    }
}
