package dev.mpj.runtime.coll;

import dev.mpj.api.ReductionOperands;
import dev.mpj.runtime.engine.ProgressEngine;
import mpi.MPIException;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.List;

import static dev.mpj.runtime.node.FoldRoom.CAPACITY;
import static dev.mpj.runtime.node.FoldRoom.FOLDED_OFFSET;
import static dev.mpj.runtime.node.FoldRoom.LANDED_OFFSET;
import static dev.mpj.runtime.node.FoldRoom.LENGTH_OFFSET;
import static dev.mpj.runtime.node.FoldRoom.OPERAND_OFFSET;
import static dev.mpj.runtime.node.FoldRoom.RESULT_OFFSET;
import static dev.mpj.runtime.node.FoldRoom.WRITTEN_OFFSET;

/**
 * A long allreduce of a communicator of two members on one node, through the node's {@link
 * dev.mpj.runtime.node.FoldRoom}: Rabenseifner's one halving and one doubling, with the slots for the messages.
 * Each member writes the half of its operand the other combines into its slot, straight from its array, combines
 * the other's half of the operand with its own into its result while copying what it combined into its slot, and
 * lands the other's combined half from there. Every byte crosses shared memory once each way, written by one
 * member and read by the other, with no copy into a send buffer, no rendezvous and no channel in between.
 *
 * <p>The halves and the operand order ({@code arriving op mine}, the arriving value the other member's) are those of
 * {@link Allreduce#rabenseifner} at P = 2, so the results are bit-identical. A step moves up to {@link
 * dev.mpj.runtime.node.FoldRoom#CAPACITY} bytes of each half; steps are numbered by this member's {@code written}
 * counter, which only grows, so a communicator made again on the same context and members carries on. Waits are
 * {@link RoomWait}'s.
 */
final class PairFold extends RoomWait {
    /** The shortest vector that comes here: shorter ones go eagerly over point-to-point, without a handshake. */
    static final int MIN_BYTES = 128 * 1024;
    /** Bytes combined before they are copied into the slot: both passes then find them in the core's cache. */
    private static final int PIECE = 16 * 1024;

    private final UnsafeBuffer room;
    /** The room as a buffer the operands' packing and kernels address by absolute index. */
    private final ByteBuffer view;
    private final RoomOwner owner;
    private final int me;
    private final int mine;
    private final int theirs;
    private long written;

    // the wait in progress: the other member's `field` must reach `target`
    private int field;
    private long target;

    PairFold(UnsafeBuffer room, ByteBuffer view, ProgressEngine engine, int context, RoomOwner owner, int me,
             int mySlot, int theirSlot) {
        super(engine, context);
        this.room = room;
        this.view = view;
        this.owner = owner;
        this.me = me;
        this.mine = mySlot;
        this.theirs = theirSlot;
        this.written = room.getLongVolatile(mySlot + WRITTEN_OFFSET);
    }

    /** Whether the room is still this communicator's: a failed collective takes it away for good. */
    boolean usable() {
        return owner.held();
    }

    /** {@code operands}' result becomes the sum (or other operation) of both members' operands. */
    void allreduce(ReductionOperands operands, int itemBytes) {
        int n = operands.bytes();
        int[] start = Bytes.split(n, 2, itemBytes);
        int myFrom = start[me];
        int myTo = start[me + 1];
        int theirFrom = start[1 - me];
        int theirTo = start[2 - me];
        int longest = Math.max(myTo - myFrom, theirTo - theirFrom);
        for (int off = 0; off < longest; off += CAPACITY) {
            long step = nextStep();
            int theirA = Math.min(theirFrom + off, theirTo);
            int theirB = Math.min(theirA + CAPACITY, theirTo);
            int myA = Math.min(myFrom + off, myTo);
            int myB = Math.min(myA + CAPACITY, myTo);
            // the other member folded the last step's operand part before this one came: the region is free
            operands.packOperand(theirA, theirB, view, mine + OPERAND_OFFSET);
            room.putInt(mine + LENGTH_OFFSET, n);
            room.putLongOrdered(mine + WRITTEN_OFFSET, step);
            written = step;
            await(WRITTEN_OFFSET, step);
            checkLength(n);
            await(LANDED_OFFSET, step - 1);
            for (int a = myA; a < myB; a += PIECE) {
                int b = Math.min(a + PIECE, myB);
                operands.combine(view, theirs + OPERAND_OFFSET + (a - myA), a, b - a, true);
                operands.packResult(a, b, view, mine + RESULT_OFFSET + (a - myA));
            }
            room.putLongOrdered(mine + FOLDED_OFFSET, step);
            await(FOLDED_OFFSET, step);
            operands.land(view, theirs + RESULT_OFFSET, theirA, theirB - theirA);
            room.putLongOrdered(mine + LANDED_OFFSET, step);
        }
    }

    /** The number of the step this member starts now; fails at once once the collectives are revoked. */
    private long nextStep() {
        failIfRevoked();
        return written + 1;
    }

    private void checkLength(int n) {
        int length = room.getInt(theirs + LENGTH_OFFSET);
        if (length != n) {
            throw new MPIException(MPIException.ERR_COUNT, "allreduce: rank " + (1 - me) + " contributed " + length
                    + " bytes where " + n + " were expected; do all ranks pass matching counts and datatypes?");
        }
    }

    private void await(int field, long target) {
        this.field = field;
        this.target = target;
        awaitReached();
    }

    @Override
    boolean reached() {
        return room.getLongVolatile(theirs + field) >= target;
    }

    @Override
    public void describePending(List<String> entries) {
        String what = field == WRITTEN_OFFSET ? "to write its operand" : field == FOLDED_OFFSET ? "to combine its half"
                : "to land the last step";
        entries.add("shared-memory allreduce (context " + context() + ", step " + target + "): waiting for rank "
                + (1 - me) + " " + what);
    }
}
