package dev.mpj.api;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A buffer for the intermediate data of blocking collectives (packed arguments, rooms for results, arriving
 * partial results), kept between calls instead of allocated by each. Its users keep one per thread and per
 * purpose ({@link ThreadLocal}): a thread runs one blocking collective at a time, so a buffer taken during a call
 * is free again when the call returns, and two purposes never share one. At most {@link #MAX_KEPT_BYTES} are kept,
 * so the memory held does not grow with the longest vector ever sent; a longer request gets a buffer of its own.
 * Never for the non-blocking collectives, whose buffers outlive the call that starts them.
 */
public final class ScratchBuffer {
    /** The longest buffer kept; longer requests allocate. */
    public static final int MAX_KEPT_BYTES = 4 << 20;

    private ByteBuffer kept = ByteBuffer.allocate(0);

    /**
     * {@code length} bytes, little-endian like all packed data, position 0, for use until the calling collective
     * returns. Their content is undefined.
     */
    public ByteBuffer take(int length) {
        if (length > kept.capacity()) {
            if (length > MAX_KEPT_BYTES) {
                return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            }
            // grow by half at least, so vectors that lengthen a little at a time reallocate only a few times
            kept = ByteBuffer.allocate((int) Math.min(MAX_KEPT_BYTES, Math.max(length, kept.capacity() * 3L / 2)));
        }
        return kept.slice(0, length).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Bytes kept for the next call. */
    public int keptBytes() {
        return kept.capacity();
    }
}
