package dev.mpj.runtime.spi;

import java.nio.ByteBuffer;

/** Copies of a message's bytes between buffers by absolute index, as the engine and the polled transports make them. */
public final class ByteRuns {
    /** Runs up to this long are copied word by word: the bulk copy's checks cost more than copying a few words. */
    public static final int SHORT_COPY = 64;

    private ByteRuns() {
    }

    /** Copies {@code n} bytes of {@code src} from index {@code from} to {@code dst} at {@code to}; no position moves. */
    public static void copy(ByteBuffer src, int from, ByteBuffer dst, int to, int n) {
        if (n > SHORT_COPY) {
            dst.put(to, src, from, n);
            return;
        }
        int i = 0;
        // words read in one order and written in the other come out byte-reversed: reversing them back keeps the
        // word-by-word copy for a big-endian room (a wrapped byte[]) filled from the little-endian ring
        boolean swap = src.order() != dst.order();
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            long word = src.getLong(from + i);
            dst.putLong(to + i, swap ? Long.reverseBytes(word) : word);
        }
        for (; i < n; i++) {
            dst.put(to + i, src.get(from + i));
        }
    }
}
