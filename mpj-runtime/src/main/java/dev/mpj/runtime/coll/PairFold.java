package dev.mpj.runtime.coll;

import dev.mpj.api.ReductionOperands;

import java.nio.ByteBuffer;

import static dev.mpj.runtime.node.FoldRoom.CAPACITY;
import static dev.mpj.runtime.node.FoldRoom.FOLDED_OFFSET;
import static dev.mpj.runtime.node.FoldRoom.LANDED_OFFSET;
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
 * dev.mpj.runtime.node.FoldRoom#CAPACITY} bytes of each half; steps, counters and waits are {@link PairSlots}'.
 */
final class PairFold {
    /** The shortest vector that comes here: shorter ones go eagerly over point-to-point, without a handshake. */
    static final int MIN_BYTES = 128 * 1024;
    /** Bytes combined before they are copied into the slot: both passes then find them in the core's cache. */
    private static final int PIECE = 16 * 1024;
    private static final String CALL = "allreduce";

    private final PairSlots slots;
    private final ByteBuffer view;
    private final int me;
    private final int mine;
    private final int theirs;

    PairFold(PairSlots slots) {
        this.slots = slots;
        this.view = slots.view;
        this.me = slots.me;
        this.mine = slots.mine;
        this.theirs = slots.theirs;
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
            long step = slots.nextStep();
            int theirA = Math.min(theirFrom + off, theirTo);
            int theirB = Math.min(theirA + CAPACITY, theirTo);
            int myA = Math.min(myFrom + off, myTo);
            int myB = Math.min(myA + CAPACITY, myTo);
            // the other member folded the last step's operand part before this one came: the region is free
            slots.awaitExchangeRead(CALL, step);
            operands.packOperand(theirA, theirB, view, mine + OPERAND_OFFSET);
            slots.publishWritten(step, n);
            slots.await(CALL, WRITTEN_OFFSET, step);
            slots.checkLength(CALL, step, n);
            slots.await(CALL, LANDED_OFFSET, step - 1);
            for (int a = myA; a < myB; a += PIECE) {
                int b = Math.min(a + PIECE, myB);
                operands.combine(view, theirs + OPERAND_OFFSET + (a - myA), a, b - a, true);
                operands.packResult(a, b, view, mine + RESULT_OFFSET + (a - myA));
            }
            slots.publish(FOLDED_OFFSET, step);
            slots.await(CALL, FOLDED_OFFSET, step);
            operands.land(view, theirs + RESULT_OFFSET, theirA, theirB - theirA);
            slots.publish(LANDED_OFFSET, step);
        }
    }
}
