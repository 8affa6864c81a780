package dev.mpj.transport.shm;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Heap buffers that frames are copied into out of the ring, so the ring's room is free again at once while the
 * engine handles the frame later. Large frames reuse pooled buffers of their size class (the next power of two,
 * so a frame never holds more than twice its length: a window of many medium frames in the inbox must not cost
 * a ring-sized buffer each), given back by the frame's release from any thread; small ones are plain
 * allocations, cheaper than pooling.
 */
final class FramePool {
    /** Frames up to this length are allocated, not pooled. */
    static final int SMALL_FRAME = 4096;
    /** The release of a frame that owns nothing to give back. */
    static final Runnable NO_RELEASE = new NoRelease();
    private static final int SMALLEST_CLASS = Integer.numberOfTrailingZeros(SMALL_FRAME) + 1;

    private final int bufferLength;
    private final ManyToOneConcurrentArrayQueue<PooledFrame>[] free;

    /**
     * @param bufferLength the longest frame a pooled buffer holds
     * @param retained     how many free buffers the pool keeps at most per size class
     */
    @SuppressWarnings("unchecked")
    FramePool(int bufferLength, int retained) {
        this.bufferLength = bufferLength;
        int classes = Math.max(0, sizeClass(Math.max(bufferLength, SMALL_FRAME + 1)) - SMALLEST_CLASS + 1);
        this.free = new ManyToOneConcurrentArrayQueue[classes];
        for (int c = 0; c < classes; c++) {
            free[c] = new ManyToOneConcurrentArrayQueue<>(retained);
        }
    }

    /** A frame buffer of {@code length} bytes (position 0, limit {@code length}, little-endian). */
    PooledFrame take(int length) {
        if (length > SMALL_FRAME && length <= bufferLength) {
            int c = sizeClass(length) - SMALLEST_CLASS;
            PooledFrame f = free[c].poll();
            if (f == null) {
                f = new PooledFrame(ByteBuffer.allocate(Math.min(1 << sizeClass(length), bufferLength)), free[c]);
            }
            f.buffer.clear().limit(length);
            return f;
        }
        return new PooledFrame(ByteBuffer.allocate(length), null);
    }

    /** log2 of the smallest power of two that holds {@code length}. */
    private static int sizeClass(int length) {
        return 32 - Integer.numberOfLeadingZeros(length - 1);
    }

    /** A frame and what gives it back to its pool. */
    static final class PooledFrame implements Runnable {
        final ByteBuffer buffer;
        private final ManyToOneConcurrentArrayQueue<PooledFrame> home;

        private PooledFrame(ByteBuffer buffer, ManyToOneConcurrentArrayQueue<PooledFrame> home) {
            this.buffer = buffer.order(ByteOrder.LITTLE_ENDIAN);
            this.home = home;
        }

        /** What the sink calls when it is done with the frame. */
        Runnable release() {
            return home == null ? NO_RELEASE : this;
        }

        @Override
        public void run() {
            home.offer(this); // a full class queue drops the buffer for the collector
        }
    }

    private static final class NoRelease implements Runnable {
        @Override
        public void run() {
        }
    }
}
