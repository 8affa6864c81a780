package dev.mpj.transport.shm;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Heap buffers that frames are copied into out of the ring, so the ring's room is free again at once while the
 * engine handles the frame later. Large frames reuse pooled buffers (given back by the frame's release, from any
 * thread); small ones are plain allocations, cheaper than pooling.
 */
final class FramePool {
    /** Frames up to this length are allocated, not pooled. */
    static final int SMALL_FRAME = 4096;
    /** The release of a frame that owns nothing to give back. */
    static final Runnable NO_RELEASE = new NoRelease();

    private final int bufferLength;
    private final ManyToOneConcurrentArrayQueue<PooledFrame> free;

    /**
     * @param bufferLength the longest frame a pooled buffer holds
     * @param retained     how many free buffers the pool keeps at most
     */
    FramePool(int bufferLength, int retained) {
        this.bufferLength = bufferLength;
        this.free = new ManyToOneConcurrentArrayQueue<>(retained);
    }

    /** A frame buffer of {@code length} bytes (position 0, limit {@code length}, little-endian). */
    PooledFrame take(int length) {
        if (length > SMALL_FRAME && length <= bufferLength) {
            PooledFrame f = free.poll();
            if (f == null) {
                f = new PooledFrame(ByteBuffer.allocate(bufferLength), this);
            }
            f.buffer.clear().limit(length);
            return f;
        }
        return new PooledFrame(ByteBuffer.allocate(length), null);
    }

    /** A frame and what gives it back to its pool. */
    static final class PooledFrame implements Runnable {
        final ByteBuffer buffer;
        private final FramePool pool;

        private PooledFrame(ByteBuffer buffer, FramePool pool) {
            this.buffer = buffer.order(ByteOrder.LITTLE_ENDIAN);
            this.pool = pool;
        }

        /** What the sink calls when it is done with the frame. */
        Runnable release() {
            return pool == null ? NO_RELEASE : this;
        }

        @Override
        public void run() {
            pool.free.offer(this);
        }
    }

    private static final class NoRelease implements Runnable {
        @Override
        public void run() {
        }
    }
}
