package dev.mpj.runtime.coll;

import dev.mpj.api.AllComplete;
import dev.mpj.api.CommSpec;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import mpi.MPIException;

import java.nio.ByteBuffer;

/**
 * The members of a communicator as one collective sees them: numbered from 0 to size − 1, either
 * by rank or rotated so that the root is 0 (the "relative rank" of MPICH's tree algorithms), with
 * point-to-point helpers that send and receive on the collective's tag and context. Every receive
 * expects an exact length: a block of another size means the members disagree on counts.
 */
final class Peers {
    private final MpiBackend backend;
    private final int[] world;
    private final int context;
    private final int tag;
    private final int shift;
    private final int size;
    private final int me;

    private Peers(MpiBackend backend, int[] world, int context, int tag, int shift, int me) {
        this.backend = backend;
        this.world = world;
        this.context = context;
        this.tag = tag;
        this.shift = shift;
        this.size = world.length;
        this.me = me;
    }

    /** The members by rank. */
    static Peers of(MpiBackend backend, CommSpec comm, CollectiveKind kind) {
        return of(backend, comm, kind.tag());
    }

    /** The members by rank, for a collective whose messages carry {@code tag}. */
    static Peers of(MpiBackend backend, CommSpec comm, int tag) {
        return new Peers(backend, comm.worldRanks(), comm.collectiveContext(), tag, 0, comm.rank());
    }

    /** The same members renumbered so that communicator rank {@code root} is 0. */
    Peers rootedAt(int root) {
        int rank = (me + shift) % size;
        return new Peers(backend, world, context, tag, root, (rank - root + size) % size);
    }

    /**
     * The members at communicator ranks {@code ranks} alone, numbered by their index there, with the caller at
     * index {@code me}: a group for one step of a node-aware algorithm, on the same context and tag.
     */
    Peers among(int[] ranks, int me) {
        if (shift != 0) {
            throw new IllegalStateException("a subgroup is taken from the members numbered by rank");
        }
        int[] sub = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            sub[i] = world[ranks[i]];
        }
        return new Peers(backend, sub, context, tag, 0, me);
    }

    int size() {
        return size;
    }

    /** The caller's number. */
    int me() {
        return me;
    }

    /** The communicator rank of member {@code v}. */
    int rankOf(int v) {
        return (v + shift) % size;
    }

    MpiBackend backend() {
        return backend;
    }

    Operation startSend(int v, ByteBuffer data) {
        return backend.send(data, world[rankOf(v)], tag, context, SendMode.STANDARD);
    }

    Operation startReceive(int v, ByteBuffer room) {
        return backend.receive(room, world[rankOf(v)], tag, context);
    }

    void send(int v, ByteBuffer data) {
        waitAll(startSend(v, data));
    }

    void receive(int v, ByteBuffer room) {
        Operation r = startReceive(v, room);
        waitAll(r);
        checkLength(r, room.remaining(), v);
    }

    /** Sends to one member and receives from another (or the same) at once, so pairs cannot deadlock. */
    void exchange(int to, ByteBuffer data, int from, ByteBuffer room) {
        exchangeCopying(to, data, from, room, null, null);
    }

    /**
     * {@link #exchange}, copying {@code local} into {@code localRoom} (null: nothing) between posting the messages
     * and waiting for them: the partner's data travels while this member copies, rather than after, and the
     * receive is posted before the copy, so data that comes meanwhile can land in {@code room} directly.
     */
    void exchangeCopying(int to, ByteBuffer data, int from, ByteBuffer room, ByteBuffer local, ByteBuffer localRoom) {
        Operation r = startReceive(from, room);
        Operation s = startSend(to, data);
        if (local != null) {
            Bytes.copy(local, localRoom);
        }
        waitAll(r, s);
        checkLength(r, room.remaining(), from);
    }

    /**
     * {@link #exchange}, the arriving bytes going to {@code fold} as they come (where the backend hands them over)
     * rather than into a room first; returns once the arriving operand is combined. The send goes first: a
     * partner's message already here is combined as the receive is posted, which must not hold this member's data
     * back from the partner.
     */
    void exchangeFolding(int to, ByteBuffer data, int from, OnArrival fold) {
        ByteBuffer room = fold.room();
        Operation s = startSend(to, data);
        Operation r = backend.receive(room, fold, world[rankOf(from)], tag, context);
        waitAll(r, s);
        checkLength(r, room.remaining(), from);
        fold.finish();
    }

    /** Waits for every operation (null entries are skipped), then raises the first error among them. */
    void waitAll(Operation... ops) {
        backend.await(new AllComplete(ops));
        for (Operation op : ops) {
            if (op != null && op.error() != null) {
                throw op.error();
            }
        }
    }

    /** Waits for receives posted together, each of which must have filled its room. */
    void waitReceives(Operation[] receives, ByteBuffer[] rooms, int[] from) {
        waitAll(receives);
        for (int i = 0; i < receives.length; i++) {
            if (receives[i] != null) {
                checkLength(receives[i], rooms[i].remaining(), from[i]);
            }
        }
    }

    void checkLength(Operation r, int expected, int v) {
        if (r.byteCount() != expected) {
            throw new MPIException(MPIException.ERR_COUNT, "collective: received " + r.byteCount()
                    + " bytes from rank " + rankOf(v) + " where " + expected
                    + " were expected; do all ranks pass matching counts and datatypes?");
        }
    }
}
