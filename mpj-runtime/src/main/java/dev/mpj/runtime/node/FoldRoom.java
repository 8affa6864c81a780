package dev.mpj.runtime.node;

import static org.agrona.BitUtil.CACHE_LINE_LENGTH;

/**
 * The layout of the node segment's room for long reductions of two members: one owner word, claimed once by one
 * communicator, then one slot per rank of the node, written only by its rank. A slot holds the part of its rank's
 * operand the other member combines, and the part of the result its rank combined, which the other lands; three
 * counters (each the last step whose data are there or were used) order them. Vectors longer than a slot's
 * regions pass in several steps. A node of one rank has no room; untouched slots cost no memory on a tmpfs.
 * <pre>
 *  +0                     owner: the communicator's identity, 0 while free (64 bits, its own cache line)
 *  +64 + i × SLOT_LENGTH  slot of the node's local rank i:
 *      +0    written (64 bits): the last step whose operand part is in the slot
 *      +8    folded (64 bits): the last step whose result part is in the slot (the other's operand part was read)
 *      +16   landed (64 bits): the last step whose result part of the other member was read
 *      +24   lengths (two of 32 bits, by the step's parity): bytes of the whole vector of the step's call
 *      +64   operand part, up to CAPACITY bytes
 *      +64 + CAPACITY   result part, up to CAPACITY bytes
 * </pre>
 */
public final class FoldRoom {
    /** The longest part of a vector one step moves each way. */
    public static final int CAPACITY = 256 * 1024;

    public static final int OWNER_OFFSET = 0;
    public static final int SLOTS_OFFSET = CACHE_LINE_LENGTH;
    public static final int WRITTEN_OFFSET = 0;
    public static final int FOLDED_OFFSET = WRITTEN_OFFSET + Long.BYTES;
    public static final int LANDED_OFFSET = FOLDED_OFFSET + Long.BYTES;
    public static final int LENGTH_OFFSET = LANDED_OFFSET + Long.BYTES;
    public static final int OPERAND_OFFSET = CACHE_LINE_LENGTH;
    public static final int RESULT_OFFSET = OPERAND_OFFSET + CAPACITY;
    public static final int SLOT_LENGTH = RESULT_OFFSET + CAPACITY;

    private FoldRoom() {
    }

    /** The length of the room on a node of {@code localSize} ranks. */
    public static long length(int localSize) {
        return localSize < 2 ? 0 : SLOTS_OFFSET + (long) localSize * SLOT_LENGTH;
    }

    /** Where local rank {@code localRank}'s slot starts in the room. */
    public static long slotOffset(int localRank) {
        return SLOTS_OFFSET + (long) localRank * SLOT_LENGTH;
    }
}
