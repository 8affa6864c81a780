package dev.mpj.runtime.engine;

import dev.mpj.api.Operation;

import java.nio.ByteBuffer;

/** State every engine request shares; mutated only by the MPI thread, so plain fields suffice. */
abstract class BaseOperation implements Operation {
    int source;
    int tag;
    int byteCount;
    boolean complete;
    boolean cancelled;
    RuntimeException error;
    ByteBuffer buffer;

    @Override
    public boolean isComplete() {
        return complete;
    }

    @Override
    public int source() {
        return source;
    }

    @Override
    public int tag() {
        return tag;
    }

    @Override
    public int byteCount() {
        return byteCount;
    }

    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    @Override
    public RuntimeException error() {
        return error;
    }
}
