package dev.mpj.runtime.spi;

import java.nio.ByteBuffer;

/**
 * Receives inbound frames from a transport, typically on one of its I/O threads. Implementations must be
 * thread-safe and must not block.
 */
public interface FrameSink {
    /**
     * One whole frame from {@code peer}: {@link FrameHeader#LENGTH} header bytes then the payload, from
     * position to limit. The sink owns the buffer until it calls {@code release}, exactly once.
     */
    void onFrame(int peer, ByteBuffer frame, Runnable release);

    /**
     * Offers a frame the sink may handle at once, reading it only during this call: {@code frame} is the
     * transport's own memory (a shared-memory ring), valid until this returns. Returns false when the sink does
     * not take it; the transport then copies the frame and calls {@link #onFrame}. Only polled transports call
     * it, from the thread that drives MPI; it saves a copy of bulk data. Such a transport offers every frame it
     * receives here first, in its order, and hands a refused one to {@link #onFrame} before offering the next, so
     * the sink can keep a peer's frames in order across both paths.
     */
    default boolean onFrameInPlace(int peer, ByteBuffer frame) {
        return false;
    }

    /**
     * Asked by a polled transport after each frame the sink took in place: false when the transport should leave
     * the frames behind it where they are until its next {@code poll}. Reading on is never wrong, only dearer: the
     * sink would copy frames it cannot use yet.
     */
    default boolean keepReading() {
        return true;
    }

    /** The connection to {@code peer} was lost without that peer leaving in order. */
    void onPeerLost(int peer, Throwable cause);
}
