package dev.mpj.runtime.spi;

import java.nio.ByteBuffer;

/**
 * A polled transport's inbound memory, from which a blocking receive takes its message in place
 * ({@link Transport#directSource}), with none of a progress pass's hand-offs: a woken receiver's JIT compiles
 * each method a message passes through on its own, each with what it calls inlined.
 */
public interface DirectSource {
    /**
     * The next frame that has arrived (little-endian, from position to limit), read past, when {@code receive}
     * accepts it ({@link DirectReceive#accepts}); else null, every frame left for {@link Transport#poll}. The
     * frame is valid until the next call on this source or its transport. Called from the thread that drives MPI,
     * as {@link Transport#poll} is.
     */
    ByteBuffer takeDirect(DirectReceive receive);
}
