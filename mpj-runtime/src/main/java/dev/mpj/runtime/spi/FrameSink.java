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

    /** The connection to {@code peer} was lost without that peer leaving in order. */
    void onPeerLost(int peer, Throwable cause);
}
