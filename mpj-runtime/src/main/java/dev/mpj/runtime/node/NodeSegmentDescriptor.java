package dev.mpj.runtime.node;

import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;

import static org.agrona.BitUtil.CACHE_LINE_LENGTH;
import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * The layout of a node segment: one memory-mapped file per node and job, shared by the ranks of the node.
 * All fields are little-endian (native on the platforms we run on), read and written in place on an
 * {@link AtomicBuffer}.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+ 0   header
 *  |        Layout Version (0 until ready; written last)           |
 *  +---------------------------------------------------------------+ 4
 *  |                       Magic "MPJS"                            |
 *  +---------------------------------------------------------------+ 8
 *  |                         Node Id                               |
 *  +---------------------------------------------------------------+ 12
 *  |                Local Size (ranks on the node)                 |
 *  +---------------------------------------------------------------+ 16
 *  |                  Job Size (card slots)                        |
 *  +---------------------------------------------------------------+ 20
 *  |             Card Capacity (longest card, bytes)               |
 *  +---------------------------------------------------------------+ 24
 *  |            Card Slot Length (stride of the table)             |
 *  +---------------------------------------------------------------+ 28
 *  |                    Card Table Offset                          |
 *  +---------------------------------------------------------------+ 32
 *  |                    Transport Offset                           |
 *  +---------------------------------------------------------------+ 36
 *  |                    Transport Length                           |
 *  +---------------------------------------------------------------+ 40
 *  |                     Segment Length                            |
 *  +---------------------------------------------------------------+ 44
 *  |     Longest Card Offered (atomic max, for the length agreement)|
 *  +---------------------------------------------------------------+ 48
 *  |                 Creator Pid (64 bits)                         |
 *  |                                                               |
 *  +---------------------------------------------------------------+ 56
 *  |        Attached Ranks (the last to detach removes the file)   |
 *  +---------------------------------------------------------------+ 60
 *  |                     unused up to 128                          |
 *  +---------------------------------------------------------------+ 128 node barrier
 *  |        Barrier Count (ranks arrived), own cache line          |
 *  +---------------------------------------------------------------+ 192
 *  |        Barrier Sense (flips when all arrived), own cache line |
 *  +---------------------------------------------------------------+ 256 card table: one slot per rank of the job
 *  |  Slot 0: Card Length (0 = empty) | Card bytes … (padded to 8) |
 *  |  Slot 1 …                                                     |
 *  |  …  Slot (Job Size − 1)                                       |
 *  +---------------------------------------------------------------+ Transport Offset (64-byte aligned)
 *  |        Room for the shared-memory transport (Transport Length)|
 *  +---------------------------------------------------------------+ Collective Offset (64-byte aligned)
 *  |        Room for the node-local collectives ({@link CollectiveRoom}, by Local Size)|
 *  +---------------------------------------------------------------+ Fold Offset
 *  |        Room for long reductions of two members ({@link FoldRoom}, by Local Size)|
 *  +---------------------------------------------------------------+ Segment Length
 * </pre>
 * The creator writes every field, then the layout version last with a volatile store ({@link #signalReady});
 * a rank that sees a non-zero version sees the whole header. A card slot's length is likewise stored after the
 * card's bytes, with an ordered store, so a non-zero length means a complete card.
 */
public final class NodeSegmentDescriptor {
    /** The layout this code writes; a segment of another version is rejected. */
    public static final int LAYOUT_VERSION = 3;
    /** "MPJS" in ASCII. */
    public static final int MAGIC = 0x4d504a53;

    public static final int LAYOUT_VERSION_OFFSET = 0;
    public static final int MAGIC_OFFSET = LAYOUT_VERSION_OFFSET + SIZE_OF_INT;
    public static final int NODE_ID_OFFSET = MAGIC_OFFSET + SIZE_OF_INT;
    public static final int LOCAL_SIZE_OFFSET = NODE_ID_OFFSET + SIZE_OF_INT;
    public static final int JOB_SIZE_OFFSET = LOCAL_SIZE_OFFSET + SIZE_OF_INT;
    public static final int CARD_CAPACITY_OFFSET = JOB_SIZE_OFFSET + SIZE_OF_INT;
    public static final int CARD_SLOT_LENGTH_OFFSET = CARD_CAPACITY_OFFSET + SIZE_OF_INT;
    public static final int CARD_TABLE_OFFSET_OFFSET = CARD_SLOT_LENGTH_OFFSET + SIZE_OF_INT;
    public static final int TRANSPORT_OFFSET_OFFSET = CARD_TABLE_OFFSET_OFFSET + SIZE_OF_INT;
    public static final int TRANSPORT_LENGTH_OFFSET = TRANSPORT_OFFSET_OFFSET + SIZE_OF_INT;
    public static final int SEGMENT_LENGTH_OFFSET = TRANSPORT_LENGTH_OFFSET + SIZE_OF_INT;
    public static final int LONGEST_CARD_OFFSET = SEGMENT_LENGTH_OFFSET + SIZE_OF_INT;
    public static final int CREATOR_PID_OFFSET = LONGEST_CARD_OFFSET + SIZE_OF_INT;
    public static final int ATTACHED_OFFSET = CREATOR_PID_OFFSET + SIZE_OF_LONG;
    public static final int HEADER_LENGTH = 2 * CACHE_LINE_LENGTH;

    public static final int BARRIER_OFFSET = HEADER_LENGTH;
    /** Arrivals and the sense flag on separate cache lines: waiters poll the sense while others arrive. */
    public static final int BARRIER_COUNT_OFFSET = BARRIER_OFFSET;
    public static final int BARRIER_SENSE_OFFSET = BARRIER_COUNT_OFFSET + CACHE_LINE_LENGTH;
    public static final int BARRIER_LENGTH = 2 * CACHE_LINE_LENGTH;

    /** Where the card table starts in every segment of this layout. */
    public static final int CARD_TABLE_START = BARRIER_OFFSET + BARRIER_LENGTH;
    /** Within a slot: the card's length in bytes, 0 while the slot is empty. */
    public static final int CARD_LENGTH_FIELD_OFFSET = 0;
    /** Within a slot: the card's bytes. */
    public static final int CARD_DATA_OFFSET = CARD_LENGTH_FIELD_OFFSET + SIZE_OF_INT;
    public static final int CARD_SLOT_ALIGNMENT = SIZE_OF_LONG;
    public static final int TRANSPORT_ALIGNMENT = CACHE_LINE_LENGTH;

    private NodeSegmentDescriptor() {
    }

    /** The stride of the card table for cards of up to {@code cardCapacity} bytes. */
    public static int cardSlotLength(int cardCapacity) {
        if (cardCapacity < 1) {
            throw new IllegalArgumentException("a card slot holds at least one byte, not " + cardCapacity);
        }
        return (int) align(CARD_DATA_OFFSET + (long) cardCapacity, CARD_SLOT_ALIGNMENT);
    }

    /** Where the transport's room starts. */
    public static int transportOffset(int jobSize, int cardCapacity) {
        return checkedInt(align(CARD_TABLE_START + (long) jobSize * cardSlotLength(cardCapacity),
                TRANSPORT_ALIGNMENT));
    }

    /** Where the collectives' room starts, after the transport's. */
    public static int collectiveOffset(int jobSize, int cardCapacity, int transportLength) {
        if (jobSize < 1 || transportLength < 0) {
            throw new IllegalArgumentException("job size " + jobSize + ", transport length " + transportLength);
        }
        return checkedInt(align((long) transportOffset(jobSize, cardCapacity) + transportLength,
                TRANSPORT_ALIGNMENT));
    }

    /** Where the long reductions' room starts, after the collectives' room. */
    public static int foldOffset(int localSize, int jobSize, int cardCapacity, int transportLength) {
        return checkedInt(collectiveOffset(jobSize, cardCapacity, transportLength)
                + CollectiveRoom.length(localSize));
    }

    /** The length of the whole segment of a node of {@code localSize} ranks. */
    public static int segmentLength(int localSize, int jobSize, int cardCapacity, int transportLength) {
        return checkedInt(foldOffset(localSize, jobSize, cardCapacity, transportLength)
                + FoldRoom.length(localSize));
    }

    /** Writes every header field but the layout version; the segment is all zeros before. */
    public static void fillHeader(AtomicBuffer buffer, int nodeId, int localSize, int jobSize, int cardCapacity,
                                  int transportLength, long creatorPid) {
        buffer.putInt(MAGIC_OFFSET, MAGIC);
        buffer.putInt(NODE_ID_OFFSET, nodeId);
        buffer.putInt(LOCAL_SIZE_OFFSET, localSize);
        buffer.putInt(JOB_SIZE_OFFSET, jobSize);
        buffer.putInt(CARD_CAPACITY_OFFSET, cardCapacity);
        buffer.putInt(CARD_SLOT_LENGTH_OFFSET, cardSlotLength(cardCapacity));
        buffer.putInt(CARD_TABLE_OFFSET_OFFSET, CARD_TABLE_START);
        buffer.putInt(TRANSPORT_OFFSET_OFFSET, transportOffset(jobSize, cardCapacity));
        buffer.putInt(TRANSPORT_LENGTH_OFFSET, transportLength);
        buffer.putInt(SEGMENT_LENGTH_OFFSET, segmentLength(localSize, jobSize, cardCapacity, transportLength));
        buffer.putLong(CREATOR_PID_OFFSET, creatorPid);
    }

    /** Publishes the header: the layout version, last, with a volatile store. */
    public static void signalReady(AtomicBuffer buffer) {
        buffer.putIntVolatile(LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
    }

    /** 0 until the creator has {@link #signalReady signalled ready}. */
    public static int layoutVersionVolatile(AtomicBuffer buffer) {
        return buffer.getIntVolatile(LAYOUT_VERSION_OFFSET);
    }

    /**
     * Checks a ready segment against what this rank expects and against its own arithmetic.
     *
     * @return null when it is sound, else what is wrong
     */
    public static String problem(AtomicBuffer buffer, int nodeId, int localSize, int jobSize) {
        int version = layoutVersionVolatile(buffer);
        if (version != LAYOUT_VERSION) {
            return "layout version " + version + ", this rank reads version " + LAYOUT_VERSION
                    + " (every rank of a node must run the same mpj version)";
        }
        if (buffer.getInt(MAGIC_OFFSET) != MAGIC) {
            return "no node segment magic (0x" + Integer.toHexString(buffer.getInt(MAGIC_OFFSET)) + ")";
        }
        if (nodeId(buffer) != nodeId || localSize(buffer) != localSize || jobSize(buffer) != jobSize) {
            return "made for node " + nodeId(buffer) + " of " + localSize(buffer) + " ranks in a job of "
                    + jobSize(buffer) + ", this rank expects node " + nodeId + " of " + localSize + " in a job of "
                    + jobSize;
        }
        int capacity = cardCapacity(buffer);
        if (capacity < 1 || cardSlotLength(buffer) != cardSlotLength(capacity)
                || cardTableOffset(buffer) != CARD_TABLE_START || transportLength(buffer) < 0
                || transportOffset(buffer) != transportOffset(jobSize, capacity)
                || segmentLength(buffer) != segmentLength(localSize, jobSize, capacity, transportLength(buffer))
                || segmentLength(buffer) > buffer.capacity()) {
            return "inconsistent sizes in its header (segment length " + segmentLength(buffer) + ", mapped "
                    + buffer.capacity() + ")";
        }
        return null;
    }

    public static int nodeId(AtomicBuffer buffer) {
        return buffer.getInt(NODE_ID_OFFSET);
    }

    public static int localSize(AtomicBuffer buffer) {
        return buffer.getInt(LOCAL_SIZE_OFFSET);
    }

    public static int jobSize(AtomicBuffer buffer) {
        return buffer.getInt(JOB_SIZE_OFFSET);
    }

    public static int cardCapacity(AtomicBuffer buffer) {
        return buffer.getInt(CARD_CAPACITY_OFFSET);
    }

    public static int cardSlotLength(AtomicBuffer buffer) {
        return buffer.getInt(CARD_SLOT_LENGTH_OFFSET);
    }

    public static int cardTableOffset(AtomicBuffer buffer) {
        return buffer.getInt(CARD_TABLE_OFFSET_OFFSET);
    }

    public static int transportOffset(AtomicBuffer buffer) {
        return buffer.getInt(TRANSPORT_OFFSET_OFFSET);
    }

    public static int transportLength(AtomicBuffer buffer) {
        return buffer.getInt(TRANSPORT_LENGTH_OFFSET);
    }

    public static int collectiveOffset(AtomicBuffer buffer) {
        return collectiveOffset(jobSize(buffer), cardCapacity(buffer), transportLength(buffer));
    }

    public static int foldOffset(AtomicBuffer buffer) {
        return foldOffset(localSize(buffer), jobSize(buffer), cardCapacity(buffer), transportLength(buffer));
    }

    public static int segmentLength(AtomicBuffer buffer) {
        return buffer.getInt(SEGMENT_LENGTH_OFFSET);
    }

    public static long creatorPid(AtomicBuffer buffer) {
        return buffer.getLong(CREATOR_PID_OFFSET);
    }

    /** The offset of {@code rank}'s card slot. */
    public static int cardSlotOffset(AtomicBuffer buffer, int rank) {
        return cardTableOffset(buffer) + rank * cardSlotLength(buffer);
    }

    private static long align(long value, int alignment) {
        return (value + alignment - 1) & -(long) alignment;
    }

    private static int checkedInt(long length) {
        if (length > Integer.MAX_VALUE - BitUtil.CACHE_LINE_LENGTH) {
            throw new IllegalArgumentException("a node segment of " + length + " bytes is too large");
        }
        return (int) length;
    }
}
