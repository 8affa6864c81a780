package dev.mpj.runtime.engine;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The copies that hold unexpected eager payloads until a receive matches them, kept for the next ones once the
 * receive has copied them out ({@link #giveBack}). Without it every unexpected eager message cost a new array as
 * large as its payload, zeroed and then collected: the 64 KiB blocks of an alltoall whose partner runs ahead.
 *
 * <p>Buffers come in power-of-two classes from {@link #MIN_CLASS} bytes; a buffer's limit is its payload's length.
 * The free buffers kept add up to at most {@code retainedBytes}: the eager credit, which already bounds the charged
 * eager bytes one peer may have unmatched here, so a pool that size serves a peer that uses its whole budget, and a
 * rank holds no more than that for the pool once the traffic has passed. Payloads of at most
 * {@link EagerCredit#FREE_BYTES} are neither charged nor bounded in number: they get arrays of their own, so what
 * the pool hands out stays within what the credit bounds. Not thread-safe: the engine calls it under its lock only.
 */
final class UnexpectedPayloads {
    static final int MIN_CLASS = 64;
    /** The largest power of two an array may have; a longer payload gets an array of its own. */
    static final int MAX_CLASS = 1 << 30;
    private static final int MIN_SHIFT = Integer.numberOfTrailingZeros(MIN_CLASS);
    private static final int CLASSES = Integer.numberOfTrailingZeros(MAX_CLASS) - MIN_SHIFT + 1;

    private final long retainedBytes;
    private long retained;
    /** Free buffers per class, a stack each; {@code counts[c]} of them. */
    private final ByteBuffer[][] free = new ByteBuffer[CLASSES][];
    private final int[] counts = new int[CLASSES];

    UnexpectedPayloads(long retainedBytes) {
        this.retainedBytes = retainedBytes;
    }

    /** A buffer holding the {@code length} bytes of {@code src} from index {@code from}, limit {@code length}. */
    ByteBuffer copyOf(ByteBuffer src, int from, int length) {
        ByteBuffer b = take(length);
        b.put(0, src, from, length);
        return b;
    }

    private ByteBuffer take(int length) {
        if (length <= EagerCredit.FREE_BYTES || length > MAX_CLASS) {
            return ByteBuffer.allocate(length);
        }
        int c = classOf(length);
        int n = counts[c];
        if (n == 0) {
            return ByteBuffer.allocate(1 << (c + MIN_SHIFT)).limit(length);
        }
        ByteBuffer b = free[c][--n];
        free[c][n] = null;
        counts[c] = n;
        retained -= b.capacity();
        return b.clear().limit(length);
    }

    /**
     * Takes back a buffer from {@link #copyOf} once nothing reads it any more: the receive it matched has copied it
     * out. Kept while the free buffers stay within the bound, else left to the collector.
     */
    void giveBack(ByteBuffer b) {
        int capacity = b.capacity();
        if (capacity < MIN_CLASS || capacity > MAX_CLASS || Integer.bitCount(capacity) != 1
                || retained + capacity > retainedBytes) {
            return;
        }
        int c = classOf(capacity);
        ByteBuffer[] stack = free[c];
        int n = counts[c];
        if (stack == null || n == stack.length) {
            stack = Arrays.copyOf(stack == null ? new ByteBuffer[0] : stack, Math.max(4, 2 * n));
            free[c] = stack;
        }
        stack[n] = b;
        counts[c] = n + 1;
        retained += capacity;
    }

    /** Bytes of free buffers kept (for tests). */
    long retainedBytes() {
        return retained;
    }

    /** The class of the smallest buffers that hold {@code length} bytes, for 0 < length <= MAX_CLASS. */
    private static int classOf(int length) {
        return Math.max(0, 32 - Integer.numberOfLeadingZeros(length - 1) - MIN_SHIFT);
    }
}
