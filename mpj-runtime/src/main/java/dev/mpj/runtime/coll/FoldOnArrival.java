package dev.mpj.runtime.coll;

import dev.mpj.api.Arrival;
import dev.mpj.api.Reduction;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The arriving operand of one combination step of a long allreduce, combined with this member's as it comes rather
 * than copied into a scratch room and combined after: where the backend hands the bytes over where they lie (a
 * shared-memory ring or bulk channel), they cross memory once instead of twice, and the room is never touched.
 *
 * <p>Pieces are combined while they come in order from the message's start, each a whole number of items. From the
 * first that is not, the rest land in the room and {@link #finish} combines them from there, as it does a whole
 * message that a backend copied into the room. A combination that throws is not retried (an {@code apply} may have
 * half-updated its range): the rest is only copied, and {@link #finish} throws it on the caller's thread.
 */
final class FoldOnArrival implements Arrival {
    private final Reduction op;
    private final ByteBuffer room;
    private final ByteBuffer right;
    private final ByteBuffer out;
    /** Bytes combined on arrival: always a prefix of the message. */
    private int folded;
    private boolean copying;
    private RuntimeException failure;

    /**
     * {@code out = arriving op right}, or {@code out = arriving op out} when {@code right} is null; the three
     * ranges (and {@code room}, which receives what is not combined on arrival) have the message's length.
     */
    FoldOnArrival(Reduction op, ByteBuffer room, ByteBuffer right, ByteBuffer out) {
        this.op = op;
        this.room = room;
        this.right = right;
        this.out = out;
    }

    /** Where the message lands when it is not combined on arrival: its length is the message's. */
    ByteBuffer room() {
        return room;
    }

    @Override
    public void take(long offset, ByteBuffer src, int from, int n) {
        if (!copying && offset == folded && n % op.itemBytes() == 0) {
            try {
                combine(src.slice(from, n).order(ByteOrder.LITTLE_ENDIAN), folded, n);
                folded += n;
                return;
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        copying = true;
        room.put(room.position() + (int) offset, src, from, n);
    }

    /** Once the whole message is in: combines what landed in the room, or throws what a combination threw. */
    void finish() {
        if (failure != null) {
            throw failure;
        }
        int length = room.remaining();
        if (folded < length) {
            combine(Bytes.range(room, folded, length), folded, length - folded);
        }
    }

    private void combine(ByteBuffer in, int at, int n) {
        ByteBuffer into = Bytes.range(out, at, at + n);
        if (right == null) {
            op.apply(in, into);
        } else {
            op.applyInto(in, Bytes.range(right, at, at + n), into);
        }
    }
}
