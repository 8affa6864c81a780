package dev.mpj.transport.shm;

import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import static org.agrona.BitUtil.CACHE_LINE_LENGTH;

/**
 * How the shared-memory transport lays out the node segment's transport room for a node of {@code n} local
 * ranks. Every rank derives the same layout from the room's length and {@code n}, so nothing is negotiated.
 * <pre>
 *  +-------------------------------------------------------------+ 0
 *  | Liveness slot of local rank 0: Pid (64 bits) | State (32)   |  one cache line each
 *  | …  local rank n − 1                                         |
 *  +-------------------------------------------------------------+ n × 64
 *  | Ring of local rank 0: capacity + Agrona's trailer           |  ManyToOneRingBuffer, written by the
 *  | …  local rank n − 1                                         |  other local ranks, read by its owner
 *  +-------------------------------------------------------------+
 *  | Bulk channel of local rank 0 (when the rest of the room      |  BulkChannel: large DATA frames from
 *  | …  local rank n − 1              is large enough)           |  one sender at a time
 *  +-------------------------------------------------------------+
 * </pre>
 * The ring capacity is the largest power of two that fits, which leaves up to half the room over: that rest is
 * split into one bulk channel per rank, left out when a channel would be under {@link BulkChannel#MIN_CAPACITY}.
 * The file starts as zeros, which is an empty ring, a free and empty channel and an unattached slot, so senders
 * may write to a ring before its owner has started.
 */
final class ShmLayout {
    /** A ring smaller than this is not worth using (its largest record would be 2 KiB). */
    static final int MIN_RING_CAPACITY = 16 * 1024;

    static final int PID_OFFSET = 0;
    static final int STATE_OFFSET = PID_OFFSET + BitUtil.SIZE_OF_LONG;
    static final int SLOT_LENGTH = CACHE_LINE_LENGTH;

    /** The slot is zero until its rank starts the transport. */
    static final int STATE_UNATTACHED = 0;
    static final int STATE_RUNNING = 1;
    /** Left in order (closed the transport): not lost, whatever its process does next. */
    static final int STATE_CLOSED = 2;

    private final AtomicBuffer region;
    private final int localSize;
    private final int ringCapacity;
    private final int ringsOffset;
    private final int bulkOffset;
    /** Each rank's bulk channel's length, header included; 0 when there are none. */
    private final int bulkLength;

    private ShmLayout(AtomicBuffer region, int localSize, int ringCapacity) {
        this.region = region;
        this.localSize = localSize;
        this.ringCapacity = ringCapacity;
        this.ringsOffset = localSize * SLOT_LENGTH;
        this.bulkOffset = (int) roomFor(localSize, ringCapacity);
        this.bulkLength = bulkLength(region.capacity(), localSize, ringCapacity);
    }

    /** The length of each rank's bulk channel in a room of {@code roomLength} bytes (0: none). */
    static int bulkLength(int roomLength, int localSize, int ringCapacity) {
        long rest = (roomLength - roomFor(localSize, ringCapacity)) / localSize & -CACHE_LINE_LENGTH;
        return rest - BulkChannel.HEADER_LENGTH < BulkChannel.MIN_CAPACITY ? 0 : (int) rest;
    }

    /**
     * The layout of {@code region} for {@code localSize} ranks.
     *
     * @throws IllegalArgumentException when the room cannot hold a ring of {@link #MIN_RING_CAPACITY} per rank
     */
    static ShmLayout of(AtomicBuffer region, int localSize) {
        int capacity = ringCapacity(region.capacity(), localSize);
        if (capacity < MIN_RING_CAPACITY) {
            throw new IllegalArgumentException("the node segment's transport room (" + region.capacity()
                    + " bytes) is too small for " + localSize + " rings of " + MIN_RING_CAPACITY
                    + " bytes: needs mpj.shmTransportBytes >= " + roomFor(localSize, MIN_RING_CAPACITY));
        }
        return new ShmLayout(region, localSize, capacity);
    }

    /** The ring capacity a room of {@code roomLength} bytes gives each of {@code localSize} ranks (0: none). */
    static int ringCapacity(int roomLength, int localSize) {
        if (localSize < 1) {
            throw new IllegalArgumentException("local size " + localSize);
        }
        long perRing = ((long) roomLength - (long) localSize * SLOT_LENGTH) / localSize
                - RingBufferDescriptor.TRAILER_LENGTH;
        if (perRing < ManyToOneRingBuffer.MIN_CAPACITY) {
            return 0;
        }
        return Integer.highestOneBit((int) Math.min(perRing, 1 << 30));
    }

    /** The room {@code localSize} rings of {@code ringCapacity} bytes need. */
    static long roomFor(int localSize, int ringCapacity) {
        return (long) localSize * (SLOT_LENGTH + ringCapacity + RingBufferDescriptor.TRAILER_LENGTH);
    }

    int localSize() {
        return localSize;
    }

    int ringCapacity() {
        return ringCapacity;
    }

    /** The ring {@code localRank} reads; valid as long as the segment stays mapped. */
    ManyToOneRingBuffer ring(int localRank) {
        int length = ringCapacity + RingBufferDescriptor.TRAILER_LENGTH;
        return new ManyToOneRingBuffer(new UnsafeBuffer(region, ringsOffset + checked(localRank) * length, length));
    }

    /** The bulk channel of {@code localRank}, or null when the room has none. */
    BulkChannel bulk(int localRank) {
        int at = bulkOffset + checked(localRank) * bulkLength;
        return bulkLength == 0 ? null : new BulkChannel(new UnsafeBuffer(region, at, bulkLength));
    }

    /** Records that {@code localRank} runs in process {@code pid}: the pid, then the state, ordered. */
    void attach(int localRank, long pid) {
        int slot = checked(localRank) * SLOT_LENGTH;
        region.putLongVolatile(slot + PID_OFFSET, pid);
        region.putIntVolatile(slot + STATE_OFFSET, STATE_RUNNING);
    }

    void markClosed(int localRank) {
        region.putIntVolatile(checked(localRank) * SLOT_LENGTH + STATE_OFFSET, STATE_CLOSED);
    }

    int state(int localRank) {
        return region.getIntVolatile(checked(localRank) * SLOT_LENGTH + STATE_OFFSET);
    }

    long pid(int localRank) {
        return region.getLongVolatile(checked(localRank) * SLOT_LENGTH + PID_OFFSET);
    }

    private int checked(int localRank) {
        if (localRank < 0 || localRank >= localSize) {
            throw new IndexOutOfBoundsException("local rank " + localRank + " of " + localSize);
        }
        return localRank;
    }
}
