package dev.mpj.transport.shm;

import dev.mpj.runtime.spi.FrameHeader;
import org.agrona.concurrent.AtomicBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A local rank's bulk channel: a region of the transport room that carries large rendezvous {@code DATA} frames
 * from one sender at a time, so their bytes skip the ring. A ring's reader must zero all it read (a later
 * record's header may fall anywhere in it), which for bulk data is a third pass over every byte after the copy in
 * and the copy out; here positions are counters, so nothing is zeroed.
 * <pre>
 *  0    owner (int: sender's world rank + 1, 0 when free) | written (long: end of the last frame written)
 *  64   consumed (long: end of the last frame the owner of the channel has read)
 *  128  frames, each header then payload, never wrapping past the end (a frame that would starts the next lap)
 * </pre>
 * Each frame is placed so that its payload starts on a cache line: the copies in and out then move whole lines,
 * and no store of the sender's copy splits a line.
 * A sender takes the channel with a compare-and-set of {@code owner} and holds it for one frame; a sender that
 * finds it taken writes through the ring instead. Each frame written is announced by a {@link RecordType#BULK}
 * record in the receiver's ring, so the receiver meets it in the ring's order. Frames are laid end to end by
 * successive owners ({@code written} passes from one to the next with the channel), and one owner's notices are
 * committed before it gives the channel up, so the receiver reads them in the order of their positions and gives
 * room back by moving {@code consumed}. The file starts as zeros: free, empty.
 */
final class BulkChannel {
    static final int OWNER_OFFSET = 0;
    static final int WRITTEN_OFFSET = 8;
    static final int CONSUMED_OFFSET = 64;
    static final int HEADER_LENGTH = 128;
    /** A {@link RecordType#BULK} notice in the ring: the frame's position (long), then its length (int). */
    static final int NOTICE_LENGTH = Long.BYTES + Integer.BYTES;
    /** A channel smaller than this is not worth having: such rooms leave it out ({@link ShmLayout}). */
    static final int MIN_CAPACITY = 64 * 1024;
    /** Payloads start at addresses that are multiples of this: a cache line. */
    static final int PAYLOAD_ALIGNMENT = 64;

    private final AtomicBuffer buffer;
    private final int capacity;
    /** The frames' memory as a ByteBuffer, for frames the receiver's sink reads in place. */
    private final ByteBuffer inPlace;
    private final int inPlaceAdjustment;
    /** The address of the frames' room plus a header, modulo {@link #PAYLOAD_ALIGNMENT}. */
    private final int payloadSkew;

    /** @param buffer the channel's region: {@link #HEADER_LENGTH} bytes, then the frames' room */
    BulkChannel(AtomicBuffer buffer) {
        this.buffer = buffer;
        this.capacity = buffer.capacity() - HEADER_LENGTH;
        if (capacity < MIN_CAPACITY) {
            throw new IllegalArgumentException("a bulk channel of " + capacity + " bytes");
        }
        this.inPlace = buffer.byteBuffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.inPlaceAdjustment = buffer.wrapAdjustment() + HEADER_LENGTH;
        this.payloadSkew = (int) (buffer.addressOffset() + HEADER_LENGTH + FrameHeader.LENGTH)
                & (PAYLOAD_ALIGNMENT - 1);
    }

    /** Bytes of frames the channel holds at once. */
    int capacity() {
        return capacity;
    }

    // ---------------------------------------------------------------- sender

    /** Takes the channel for world rank {@code rank}; false when another sender has it. */
    boolean tryTake(int rank) {
        return buffer.compareAndSetInt(OWNER_OFFSET, 0, rank + 1);
    }

    /** Gives the channel up, after the notices of its frames are in the ring. */
    void giveUp() {
        buffer.putIntRelease(OWNER_OFFSET, 0);
    }

    /**
     * Where the next frame of {@code length} bytes goes: after the last one written, or at the next lap's start, at
     * the first place from there whose payload starts on a cache line.
     */
    long placeOf(int length) {
        long at = buffer.getLong(WRITTEN_OFFSET);
        int offset = (int) (at % capacity);
        int start = alignedFrom(offset);
        if (start + length > capacity) {
            at += capacity - offset;
            offset = 0;
            start = alignedFrom(0);
        }
        return at + start - offset;
    }

    /** The first offset from {@code offset} at which a frame's payload starts on a cache line. */
    private int alignedFrom(int offset) {
        return offset + (-(payloadSkew + offset) & (PAYLOAD_ALIGNMENT - 1));
    }

    /** Whether the receiver has read far enough for a frame of {@code length} bytes at {@code position}. */
    boolean hasRoom(long position, int length) {
        return position + length - buffer.getLongVolatile(CONSUMED_OFFSET) <= capacity;
    }

    /** The index in {@link #buffer} of the frame at {@code position}. */
    int indexOf(long position) {
        return HEADER_LENGTH + (int) (position % capacity);
    }

    AtomicBuffer buffer() {
        return buffer;
    }

    /** Records the end of the frame just written, for the next owner. */
    void written(long end) {
        buffer.putLong(WRITTEN_OFFSET, end);
    }

    // ---------------------------------------------------------------- receiver

    /** Whether a notice's frame lies within the channel, so it can be read. */
    boolean holds(long position, int length) {
        return position >= 0 && length >= 0 && (position % capacity) + length <= capacity;
    }

    /** The frame at {@code position}, read in place until {@link #consumed}. */
    ByteBuffer frameAt(long position, int length) {
        int at = inPlaceAdjustment + (int) (position % capacity);
        return inPlace.limit(at + length).position(at);
    }

    /** Gives the room up to {@code end} back to the senders. */
    void consumed(long end) {
        buffer.putLongRelease(CONSUMED_OFFSET, end);
    }
}
