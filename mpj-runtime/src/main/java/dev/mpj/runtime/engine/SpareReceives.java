package dev.mpj.runtime.engine;

import java.nio.ByteBuffer;

/**
 * Completed receive operations kept for the next receives, so a stream of small receives (a window of
 * {@code Irecv}s, a storm of {@code Recv}s) makes no engine operation or match link per message. Bounded: beyond
 * {@link #CAPACITY} a released operation is left to the collector. Not thread-safe: used under the engine's entry.
 */
final class SpareReceives {
    /** Enough for windows of 64 receives in flight at once (OSU's), several times over. */
    static final int CAPACITY = 256;
    private final ReceiveOperation[] spares = new ReceiveOperation[CAPACITY];
    private int count;

    /** A spare made anew for this receive, or a new operation when there is none. */
    ReceiveOperation take(ProgressEngine engine, long id, ByteBuffer room, int source, int tag, int context) {
        if (count == 0) {
            return new ReceiveOperation(engine, id, room, source, tag, context);
        }
        ReceiveOperation op = spares[--count];
        spares[count] = null;
        op.reuse(id, room, source, tag, context);
        return op;
    }

    /** Keeps {@code op}, which the caller has checked is {@link ReceiveOperation#reusable} and no one else sees. */
    void give(ReceiveOperation op) {
        if (count < CAPACITY) {
            op.forgetRoom();
            spares[count++] = op;
        }
    }

    int size() {
        return count;
    }
}
