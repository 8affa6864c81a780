package dev.mpj.runtime.coll;

import dev.mpj.runtime.engine.ProgressEngine;
import mpi.MPIException;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.List;

import static dev.mpj.runtime.node.FoldRoom.FOLDED_OFFSET;
import static dev.mpj.runtime.node.FoldRoom.LANDED_OFFSET;
import static dev.mpj.runtime.node.FoldRoom.LENGTH_OFFSET;
import static dev.mpj.runtime.node.FoldRoom.WRITTEN_OFFSET;

/**
 * One member's view of a pair's two slots in the node's {@link dev.mpj.runtime.node.FoldRoom}: its own, which only it
 * writes, and the other member's, which it reads; the step counter both of the room's collectives ({@link PairFold},
 * {@link PairAlltoall}) number their steps by, and the waits for the other member's counters. Steps are numbered by
 * this member's {@code written} counter, which only grows, so a communicator made again on the same context and
 * members carries on, and an allreduce and an alltoall of one communicator may follow each other in any order.
 */
final class PairSlots extends RoomWait {
    final UnsafeBuffer room;
    /** The room as a buffer the operands' packing and kernels address by absolute index. */
    final ByteBuffer view;
    private final RoomOwner owner;
    /** This member's rank in the communicator (0 or 1). */
    final int me;
    /** Where this member's slot starts in the room. */
    final int mine;
    /** Where the other member's slot starts in the room. */
    final int theirs;
    private long written;
    /** The last step an alltoall moved: that step's part may lie in either region until the other has landed it. */
    private long lastExchange = -1;
    /** The last step before this view was made, of whatever collective: taken for an alltoall's. */
    private final long inherited;

    // the wait in progress: the other member's `field` must reach `target`, in collective `call`
    private String call = "";
    private int field;
    private long target;

    PairSlots(UnsafeBuffer room, ByteBuffer view, ProgressEngine engine, int context, RoomOwner owner, int me,
              int mySlot, int theirSlot) {
        super(engine, context);
        this.room = room;
        this.view = view;
        this.owner = owner;
        this.me = me;
        this.mine = mySlot;
        this.theirs = theirSlot;
        this.written = room.getLongVolatile(mySlot + WRITTEN_OFFSET);
        this.inherited = written;
    }

    /** Whether the room is still this communicator's: a failed collective takes it away for good. */
    boolean usable() {
        return owner.held();
    }

    /** The number of the step this member starts now; fails at once once the collectives are revoked. */
    long nextStep() {
        failIfRevoked();
        return written + 1;
    }

    /** Publishes that this member's part of {@code step}, of a call of {@code n} bytes in all, is in its slot. */
    void publishWritten(long step, int n) {
        room.putInt(mine + lengthAt(step), n);
        room.putLongOrdered(mine + WRITTEN_OFFSET, step);
        written = step;
    }

    /** Records that {@code step} was an alltoall's, whose part the other member reads until it publishes landed. */
    void exchanged(long step) {
        lastExchange = step;
    }

    /**
     * Waits, before {@code step} writes a region, until the other member has read the last alltoall step's part if
     * that was the step just before: an allreduce's step writes its operand region before waiting for anything.
     */
    void awaitExchangeRead(String call, long step) {
        if (lastExchange == step - 1 || inherited == step - 1) {
            await(call, LANDED_OFFSET, step - 1);
        }
    }

    /**
     * The last step whose parts the other member must have read before an alltoall's {@code step} writes the region
     * two steps ago used: that step, if the step between was an alltoall's too, else the step just before, as an
     * allreduce's step holds parts in both regions.
     */
    long readBefore(long step) {
        return lastExchange == step - 1 ? step - 2 : step - 1;
    }

    /** Publishes that this member is done with {@code step} as far as {@code field} (folded, landed) says. */
    void publish(int field, long step) {
        room.putLongOrdered(mine + field, step);
    }

    /** Waits until the other member's counter at {@code field} reaches {@code target}, inside {@code call}. */
    void await(String call, int field, long target) {
        this.call = call;
        this.field = field;
        this.target = target;
        if (!reached()) {
            awaitNotYetReached();
        }
    }

    /** Fails the call when the other member's {@code step}, seen written, is not of {@code n} bytes in all as this one's is. */
    void checkLength(String call, long step, int n) {
        int length = room.getInt(theirs + lengthAt(step));
        if (length != n) {
            throw new MPIException(MPIException.ERR_COUNT, call + ": rank " + (1 - me) + " contributed " + length
                    + " bytes where " + n + " were expected; do all ranks pass matching counts and datatypes?");
        }
    }

    /**
     * Where a step's length lies in a slot: by its parity, as an alltoall's member may write the next step while the
     * other still checks this one.
     */
    private static int lengthAt(long step) {
        return LENGTH_OFFSET + (int) (step & 1) * Integer.BYTES;
    }

    @Override
    boolean reached() {
        return room.getLongVolatile(theirs + field) >= target;
    }

    @Override
    public boolean getAsBoolean() {
        return reached() || revokedMeanwhile();
    }

    @Override
    public void describePending(List<String> entries) {
        String what = field == WRITTEN_OFFSET ? "to write its part" : field == FOLDED_OFFSET ? "to combine its half"
                : "to read the last step's part";
        entries.add("shared-memory " + call + " (context " + context() + ", step " + target + "): waiting for rank "
                + (1 - me) + " " + what);
    }
}
