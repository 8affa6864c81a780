package dev.mpj.api;

import java.nio.ByteBuffer;

/**
 * What a receive does with the bytes of its message as they arrive, in place of copying them into its room: a
 * reduction combines them with its own operand where they lie (a shared-memory channel), sparing the copy into a
 * buffer that it would read once and drop. The runtime calls it on the thread that drives progress, for each piece
 * of the message exactly once; it must not block, nor call the runtime.
 */
public interface Arrival {
    /**
     * The {@code n} bytes of {@code src} from index {@code from} are the message's bytes from {@code offset}.
     * {@code src} is valid only during the call; neither its position nor its limit may be relied on or moved.
     */
    void take(long offset, ByteBuffer src, int from, int n);
}
