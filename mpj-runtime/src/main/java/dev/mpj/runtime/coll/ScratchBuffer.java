package dev.mpj.runtime.coll;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The intermediate buffer of the blocking collectives (the arriving halves of an allreduce, the blocks of Bruck's
 * alltoall), kept between calls instead of allocated by each: one per thread, since a thread runs one blocking
 * collective at a time, and of at most {@link #MAX_KEPT_BYTES}, so the memory kept does not grow with the number
 * of communicators or with the longest vector ever reduced. A longer request gets a buffer of its own. Only an
 * algorithm that calls no other collective takes it, so no two users of one thread's buffer overlap; the
 * non-blocking collectives, which outlive the call that starts them, never take it.
 */
final class ScratchBuffer {
    /** The longest buffer kept; longer requests allocate. */
    static final int MAX_KEPT_BYTES = 4 << 20;
    private static final ThreadLocal<ScratchBuffer> OF_THREAD = ThreadLocal.withInitial(ScratchBuffer::new);

    private ByteBuffer kept = ByteBuffer.allocate(0);

    /** The calling thread's buffer. */
    static ScratchBuffer ofThread() {
        return OF_THREAD.get();
    }

    /**
     * {@code length} bytes, little-endian like all packed data, for use until the calling collective returns.
     * Their content is undefined.
     */
    ByteBuffer take(int length) {
        if (length > kept.capacity()) {
            if (length > MAX_KEPT_BYTES) {
                return Bytes.allocate(length);
            }
            // grow by at least half, so vectors that lengthen a little at a time reallocate only a few times
            kept = ByteBuffer.allocate((int) Math.min(MAX_KEPT_BYTES, Math.max(length, kept.capacity() * 3L / 2)));
        }
        return kept.slice(0, length).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Bytes kept for the next call. */
    int keptBytes() {
        return kept.capacity();
    }
}
