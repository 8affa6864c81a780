package dev.mpj.runtime.coll;

import dev.mpj.runtime.node.CollectiveRoom;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

import static dev.mpj.runtime.node.FoldRoom.CAPACITY;
import static dev.mpj.runtime.node.FoldRoom.LANDED_OFFSET;
import static dev.mpj.runtime.node.FoldRoom.OPERAND_OFFSET;
import static dev.mpj.runtime.node.FoldRoom.RESULT_OFFSET;
import static dev.mpj.runtime.node.FoldRoom.WRITTEN_OFFSET;

/**
 * A long-block alltoall of a communicator of two members on one node, through the node's {@link
 * dev.mpj.runtime.node.FoldRoom}: each member copies the block for the other straight from its send buffer into its
 * slot and the other copies it from there straight into its receive buffer; its own block is a local copy, made while
 * the other member writes. Each block crosses memory twice, into the same slot addresses every call, with no ring,
 * no rendezvous, no transfer buffer and nothing to zero.
 *
 * <p>A step moves up to {@link dev.mpj.runtime.node.FoldRoom#CAPACITY} bytes into the region of its parity, so a
 * member writes the next piece, of this call or the next, while the other still reads the last one, and the only
 * wait of a call of one piece is for the other's part. Before it writes a region, a member waits until the other
 * has read what that region held ({@link PairSlots#readBefore}).
 */
final class PairAlltoall {
    /**
     * The shortest block that comes here: the first the collective room does not hold. A pair's blocks then take no
     * other path between the two rooms, so no size met later leaves the compiled alltoall for a branch it has never
     * taken, nor for point-to-point code its smaller blocks never ran.
     */
    static final int MIN_BLOCK = CollectiveRoom.DATA_CAPACITY / 2 + 1;
    /**
     * The longest block that comes here: longer ones (a transpose's blocks of many MiB) keep the bulk channel's
     * stream, which writes a whole block after one meeting of the two members where the room meets them at every
     * piece.
     */
    static final int MAX_BLOCK = 1024 * 1024;
    private static final String CALL = "alltoall";

    private final PairSlots slots;
    private final UnsafeBuffer room;
    private final int me;
    private final int mine;
    private final int theirs;

    PairAlltoall(PairSlots slots) {
        this.slots = slots;
        this.room = slots.room;
        this.me = slots.me;
        this.mine = slots.mine;
        this.theirs = slots.theirs;
    }

    /** Block {@code j} of {@code send} lands in block {@code me} of member {@code j}'s {@code recv}. */
    void alltoall(ByteBuffer send, ByteBuffer recv) {
        int n = send.remaining();
        int block = n / 2;
        int other = 1 - me;
        int out = send.position() + other * block;
        int in = recv.position() + other * block;
        int pieces = Math.max(1, (block + CAPACITY - 1) / CAPACITY);
        for (int k = 0; k < pieces; k++) {
            long step = slots.nextStep();
            int off = k * CAPACITY;
            int length = Math.min(CAPACITY, block - off);
            int region = (step & 1) == 0 ? RESULT_OFFSET : OPERAND_OFFSET;
            slots.await(CALL, LANDED_OFFSET, slots.readBefore(step));
            room.putBytes(mine + region, send, out + off, length);
            slots.publishWritten(step, n);
            if (k == 0) {
                Bytes.copy(send, me * block, block, recv, me * block);
            }
            slots.await(CALL, WRITTEN_OFFSET, step);
            slots.checkLength(CALL, step, n);
            room.getBytes(theirs + region, recv, in + off, length);
            slots.publish(LANDED_OFFSET, step);
            slots.exchanged(step);
        }
    }
}
