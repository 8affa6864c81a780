package dev.mpj.runtime.engine;

import dev.mpj.api.Operation;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * State every engine request shares, mutated under the engine's lock. {@code complete} is volatile and set last,
 * so a thread that sees it set (a waiter checking without the lock) also sees the status fields written before it.
 */
abstract class BaseOperation implements Operation {
    private static final VarHandle COMPLETE;

    static {
        try {
            COMPLETE = MethodHandles.lookup().findVarHandle(BaseOperation.class, "complete", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int source;
    int tag;
    int byteCount;
    volatile boolean complete;
    boolean cancelled;
    RuntimeException error;
    ByteBuffer buffer;

    /**
     * Makes a completed operation pending again, for its reuse by the thread that owns it: a plain store, as no
     * other thread may look at it until it is published again by {@link #markComplete}.
     */
    final void markPending() {
        COMPLETE.set(this, false);
    }

    /** Publishes the fields written so far; an ordered store, as only its readers need the order. */
    final void markComplete() {
        COMPLETE.setRelease(this, true);
    }

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
