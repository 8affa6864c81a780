package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.PmiException;

/**
 * Whether a client's split barrier is pending. PMI-1 and PMI-2 are lock-step: no request may pass a barrier whose
 * reply is still unread, and a barrier's second half needs its first.
 */
final class SplitBarrier {
    private boolean pending;

    /** Marks the barrier entered; fails when one is already pending. */
    void begin() {
        requireNone();
        pending = true;
    }

    /** Marks the barrier's reply as about to be read; fails when no barrier was entered. */
    void end() {
        if (!pending) {
            throw new PmiException("barrierEnd() without barrierBegin()");
        }
        pending = false;
    }

    /** Fails when a barrier is pending, so no other request is sent before its reply is read. */
    void requireNone() {
        if (pending) {
            throw new PmiException("a PMI request was made while a split barrier is pending (call barrierEnd() first)");
        }
    }
}
