package dev.mpj.runtime.engine;

import java.nio.ByteBuffer;

/** A send: complete at once for standard eager, on ACK for synchronous eager, after the data for rendezvous. */
final class SendOperation extends BaseOperation {
    final long id;
    final int context;
    final int dest;
    /** The data, kept until a rendezvous peer clears it to send (position to limit). */
    ByteBuffer data;

    SendOperation(long id, int dest, int tag, int context, ByteBuffer data) {
        this.id = id;
        this.dest = dest;
        this.source = dest;
        this.tag = tag;
        this.context = context;
        this.data = data;
        this.byteCount = data.remaining();
    }

    void finish() {
        data = null;
        markComplete();
    }

    /** For the wait report, in world terms: {@code send(world dest=1, tag=3, context 5)}. */
    @Override
    public String toString() {
        return "send(world dest=" + dest + ", tag=" + tag + ", context " + context + ")";
    }

    @Override
    public void cancel() {
        // A message may already be matched or on the wire; MPI lets an implementation refuse.
    }
}
