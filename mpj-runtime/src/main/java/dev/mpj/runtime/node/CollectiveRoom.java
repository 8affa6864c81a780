package dev.mpj.runtime.node;

import static org.agrona.BitUtil.CACHE_LINE_LENGTH;

/**
 * The layout of the node segment's room for the node-local collectives: {@link #CHANNELS} channels, each claimed
 * once by one communicator, and in each channel one slot per rank of the node. A slot is written only by its
 * rank: the sequence number of the collective call its data belong to, then that of the last call whose data it
 * has read, each on its own cache line, then the data in two buffers, used by odd and even calls: a member may
 * write call k + 1 once the others have read call k − 1, which seeing their call k written proves, so a member
 * never waits to write. The lengths, and data of up to {@link #INLINE_CAPACITY} bytes, share the cache line of
 * the written counter: a reader of a small call then fetches one line of the writer's, not three. Untouched
 * channels cost no memory on a tmpfs.
 * <pre>
 *  channel c at c × channelLength(L):
 *    +0                     owner: the communicator's identity, 0 while free (64 bits, its own cache line)
 *    +64 + i × SLOT_LENGTH  slot of the node's local rank i:
 *        +0    written (64 bits): the call whose data the slot holds
 *        +8    length (32 bits) of the data of even calls, then of odd calls
 *        +16   data of even calls, then of odd calls, when they are at most INLINE_CAPACITY bytes
 *        +64   read (64 bits): the last call this rank has finished reading others' slots for
 *        +128  data of even calls, then of odd calls, longer than INLINE_CAPACITY, up to DATA_CAPACITY bytes each
 * </pre>
 */
public final class CollectiveRoom {
    /** Communicators that can hold a channel at once on a node; the others run over point-to-point. */
    public static final int CHANNELS = 16;
    /** The longest contribution a slot holds. */
    public static final int DATA_CAPACITY = 2048;

    public static final int OWNER_OFFSET = 0;
    public static final int SLOTS_OFFSET = CACHE_LINE_LENGTH;
    public static final int WRITTEN_OFFSET = 0;
    public static final int LENGTH_OFFSET = WRITTEN_OFFSET + Long.BYTES;
    public static final int INLINE_OFFSET = LENGTH_OFFSET + 2 * Integer.BYTES;
    /** The longest contribution kept on the written counter's cache line, in each of the two calls' buffers. */
    public static final int INLINE_CAPACITY = (CACHE_LINE_LENGTH - INLINE_OFFSET) / 2;
    public static final int READ_OFFSET = CACHE_LINE_LENGTH;
    public static final int DATA_OFFSET = 2 * CACHE_LINE_LENGTH;
    public static final int SLOT_LENGTH = DATA_OFFSET + 2 * DATA_CAPACITY;

    private CollectiveRoom() {
    }

    /** The length of one channel on a node of {@code localSize} ranks. */
    public static long channelLength(int localSize) {
        return SLOTS_OFFSET + (long) localSize * SLOT_LENGTH;
    }

    /** The length of the room on a node of {@code localSize} ranks. */
    public static long length(int localSize) {
        return CHANNELS * channelLength(localSize);
    }

    /** Where local rank {@code localRank}'s slot of channel {@code channel} starts in the room. */
    public static long slotOffset(int localSize, int channel, int localRank) {
        return channel * channelLength(localSize) + SLOTS_OFFSET + (long) localRank * SLOT_LENGTH;
    }
}
