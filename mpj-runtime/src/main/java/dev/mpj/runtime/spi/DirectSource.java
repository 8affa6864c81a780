package dev.mpj.runtime.spi;

import java.nio.ByteBuffer;

/**
 * A polled transport's inbound memory, from which a blocking receive takes its message in place
 * ({@link Transport#directSource}), with none of a progress pass's hand-offs: a woken receiver's JIT compiles
 * each method a message passes through on its own, each with what it calls inlined.
 */
public interface DirectSource {
    /**
     * The memory the frames lie in (little-endian), read by absolute index: the same view for every take, never
     * moved, so a take moves no buffer's position or limit.
     */
    ByteBuffer memory();

    /**
     * The index in {@link #memory} of the payload of the next frame that has arrived, read past, when {@code
     * receive} accepts it ({@link DirectReceive#accepts}), which then holds its envelope and length; else -1, every
     * frame left for {@link Transport#poll}. A source may also leave a frame it would accept to the poll (the caller
     * then takes its general path), as the shared-memory reader does where it gives room back. The payload is valid
     * until the next call on this source or its transport. Called from the thread that drives MPI, as {@link
     * Transport#poll} is.
     */
    int takeDirect(DirectReceive receive);
}
