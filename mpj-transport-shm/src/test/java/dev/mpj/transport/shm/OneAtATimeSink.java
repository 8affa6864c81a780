package dev.mpj.transport.shm;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * A sink that takes every frame in place and asks the reader to stop after each, as the engine does once the last
 * posted receive is matched; it keeps what {@code read} takes from each frame, in order.
 */
final class OneAtATimeSink extends RecordingSink {
    final List<Long> taken = new ArrayList<>();
    private final ToLongFunction<ByteBuffer> read;

    OneAtATimeSink(ToLongFunction<ByteBuffer> read) {
        this.read = read;
    }

    @Override
    public boolean onFrameInPlace(int peer, ByteBuffer frame) {
        taken.add(read.applyAsLong(frame));
        return true;
    }

    @Override
    public boolean keepReading() {
        return false;
    }
}
