package dev.mpj.runtime.coll;

import dev.mpj.runtime.engine.ProgressEngine;
import mpi.MPIException;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.List;

import static dev.mpj.runtime.node.CollectiveRoom.DATA_CAPACITY;
import static dev.mpj.runtime.node.CollectiveRoom.DATA_OFFSET;
import static dev.mpj.runtime.node.CollectiveRoom.INLINE_CAPACITY;
import static dev.mpj.runtime.node.CollectiveRoom.INLINE_OFFSET;
import static dev.mpj.runtime.node.CollectiveRoom.LENGTH_OFFSET;
import static dev.mpj.runtime.node.CollectiveRoom.READ_OFFSET;
import static dev.mpj.runtime.node.CollectiveRoom.WRITTEN_OFFSET;

/**
 * One communicator's channel of the node's {@link dev.mpj.runtime.node.CollectiveRoom}: a slot per member, which
 * only that member writes. A call is numbered by the member's own {@code written} counter plus one, the same at
 * every member since every member makes every call; each slot's counters only grow, so nothing is ever reset
 * and a communicator made again on the same context and members carries on where the last one stopped.
 *
 * <p>Calls alternate between a slot's two buffers. A member overwrites a buffer only once every other member has
 * finished reading the call before the last ({@code read} ≥ call − 2), and reads another's data only once that one
 * has written this call's ({@code written} ≥ call); a member finishes reading a call before it writes the next,
 * so a write seldom waits and the members are coupled only by each call's own data. A member arrives at a call
 * only after it finished reading the one before, so another's {@code written} counter seen at call − 1 proves its
 * {@code read} at call − 2: a write right after a call whose data every member wrote reads no {@code read}
 * counter, which the others' finishing moves to their own caches at every call. Waits are {@link RoomWait}'s.
 */
final class NodeChannel extends RoomWait {
    private final UnsafeBuffer room;
    /** Each member's slot offset in the room, by communicator rank. */
    private final int[] slot;
    private final int me;
    private final RoomOwner owner;
    /**
     * This member's {@code written} counter, which only it writes, kept here so that starting a call reads no
     * shared memory: the room's read in compiled code was one more speculation on Agrona's accessors, whose
     * profile every off-heap and heap buffer of the process shares.
     */
    private long written;
    /**
     * The highest {@code written} counter seen of each member: a member that has written call k has read call
     * k − 1, so a write's wait for the others' reads is decided from it without reading their {@code read}.
     */
    private final long[] seenWritten;

    // the wait in progress: members from `cursor` on must have `field` ≥ `target`
    private int field;
    private long target;
    private int cursor;
    private int only;

    NodeChannel(UnsafeBuffer room, ProgressEngine engine, int context, RoomOwner owner, int[] slotOffsets, int me) {
        super(engine, context);
        this.room = room;
        this.owner = owner;
        this.slot = slotOffsets;
        this.me = me;
        this.written = room.getLongVolatile(slotOffsets[me] + WRITTEN_OFFSET);
        this.seenWritten = new long[slotOffsets.length];
    }

    /** Whether the channel is still this communicator's: a failed collective takes it away for good. */
    boolean usable() {
        return owner.held();
    }

    int size() {
        return slot.length;
    }

    int me() {
        return me;
    }

    /**
     * The number of the call this member starts now; fails at once, as operations on its context do, once the
     * communicator's collectives are revoked.
     */
    long nextCall() {
        failIfRevoked();
        return written + 1;
    }

    /**
     * Puts {@code src} (position to limit, unchanged) in this member's buffer for {@code call}, once the others
     * have read what it held (call − 2): seen written in the last call, they have, so this seldom waits.
     */
    void write(long call, ByteBuffer src) {
        awaitAll(READ_OFFSET, call - 2);
        int n = src.remaining();
        int parity = (int) (call & 1);
        room.putBytes(dataAt(me, parity, n), src, src.position(), n);
        room.putInt(slot[me] + LENGTH_OFFSET + parity * Integer.BYTES, n);
        arrive(call);
    }

    /** Marks {@code call} as started by this member without data of its own. */
    void arrive(long call) {
        room.putLongOrdered(slot[me] + WRITTEN_OFFSET, call);
        written = call;
    }

    /** Marks the others' data of {@code call} as read by this member: they may overwrite them. */
    void finish(long call) {
        room.putLongOrdered(slot[me] + READ_OFFSET, call);
    }

    /** Waits until every member has written {@code call}. */
    void awaitWritten(long call) {
        awaitAll(WRITTEN_OFFSET, call);
    }

    /** Waits until member {@code v} has written {@code call}. */
    void awaitWrittenBy(int v, long call) {
        if (v != me) {
            await(WRITTEN_OFFSET, call, v);
        }
    }

    /**
     * Copies {@code length} bytes from byte {@code from} of member {@code v}'s data of {@code call} (written, and
     * {@code n} bytes long) into {@code dst} at {@code at} from its position, which does not move. Straight from
     * the room: a view's {@code put} would bring the JDK's generic buffer copy into every compile of the
     * collective that inlines it, and the interpreter and C1 code of the first calls would walk it too.
     */
    void copy(int v, long call, int n, int from, int length, ByteBuffer dst, int at) {
        int parity = checkedParity(v, call, n);
        room.getBytes(dataAt(v, parity, n) + from, dst, dst.position() + at, length);
    }

    /** Where member {@code v}'s {@code n} bytes of the calls of {@code parity} lie: small ones by its counter. */
    private int dataAt(int v, int parity, int n) {
        return n <= INLINE_CAPACITY
                ? slot[v] + INLINE_OFFSET + parity * INLINE_CAPACITY
                : slot[v] + DATA_OFFSET + parity * DATA_CAPACITY;
    }

    /** The buffer of {@code call} in a slot, once member {@code v}'s data there are known to be {@code n} bytes. */
    private int checkedParity(int v, long call, int n) {
        int parity = (int) (call & 1);
        int length = room.getInt(slot[v] + LENGTH_OFFSET + parity * Integer.BYTES);
        if (length != n) {
            throw new MPIException(MPIException.ERR_COUNT, "collective: rank " + v + " contributed " + length
                    + " bytes where " + n + " were expected; do all ranks pass matching counts and datatypes?");
        }
        return parity;
    }

    private void awaitAll(int field, long target) {
        await(field, target, -1);
    }

    private void await(int field, long target, int only) {
        this.field = field;
        this.target = target;
        this.only = only;
        this.cursor = only < 0 ? 0 : only;
        if (!reached()) {
            awaitNotYetReached();
        }
    }

    /**
     * Moves {@code cursor} past the members whose {@code field} has reached {@code target}; whether all have. The
     * engine tests it a few times before its wait loop, which most of a pair's waits then never enter.
     */
    @Override
    boolean reached() {
        int end = only < 0 ? slot.length : only + 1;
        for (; cursor < end; cursor++) {
            if (cursor != me && !reachedBy(cursor)) {
                return false;
            }
        }
        return true;
    }

    /** Whether member {@code v} has reached the wait's target; a {@code read} one known from its writes is not read. */
    private boolean reachedBy(int v) {
        if (field == READ_OFFSET) {
            return seenWritten[v] > target || room.getLongVolatile(slot[v] + READ_OFFSET) >= target;
        }
        long value = room.getLongVolatile(slot[v] + field);
        if (value < target) {
            return false;
        }
        seenWritten[v] = value;
        return true;
    }

    @Override
    public boolean getAsBoolean() {
        return reached() || revokedMeanwhile();
    }

    @Override
    public void describePending(List<String> entries) {
        int c = cursor;
        entries.add("shared-memory collective (context " + context() + ", call " + target + "): waiting for rank "
                + (only < 0 ? c : only) + (field == WRITTEN_OFFSET ? " to arrive" : " to read the last call"));
    }
}
