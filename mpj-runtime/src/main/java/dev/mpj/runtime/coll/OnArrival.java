package dev.mpj.runtime.coll;

import dev.mpj.api.Arrival;

import java.nio.ByteBuffer;

/**
 * The arriving operand of one step of a long allreduce, taken as it comes rather than copied into a scratch room and
 * used after: where the backend hands the bytes over where they lie (a shared-memory ring or bulk channel), they
 * cross memory once instead of twice, and the room is never touched. What a step does with them is its subclass's
 * {@link #use}: combine them with this member's operand ({@link FoldOnArrival}, {@link OperandsOnArrival}) or land
 * them in its result.
 *
 * <p>Pieces are used while they come in order from the message's start, each a whole number of items. From the first
 * that is not, the rest land in the room and {@link #finish} uses them from there, as it does a whole message that a
 * backend copied into the room. A use that throws is not retried (it may have half-updated its range): the rest is
 * only copied, and {@link #finish} throws it on the caller's thread.
 */
abstract class OnArrival implements Arrival {
    private final int itemBytes;
    private final ByteBuffer room;
    /** Bytes used on arrival: always a prefix of the message. */
    private int used;
    private boolean copying;
    private RuntimeException failure;

    /** {@code room} receives what is not used on arrival: its length is the message's. */
    OnArrival(int itemBytes, ByteBuffer room) {
        this.itemBytes = itemBytes;
        this.room = room;
    }

    /** Where the message lands when it is not used on arrival: its length is the message's. */
    final ByteBuffer room() {
        return room;
    }

    @Override
    public final void take(long offset, ByteBuffer src, int from, int n) {
        if (!copying && offset == used && n % itemBytes == 0) {
            try {
                use(src, from, used, n);
                used += n;
                return;
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        copying = true;
        room.put(room.position() + (int) offset, src, from, n);
    }

    /** Once the whole message is in: uses what landed in the room, or throws what a use threw. */
    final void finish() {
        if (failure != null) {
            throw failure;
        }
        int length = room.remaining();
        if (used < length) {
            use(room, room.position() + used, used, length - used);
        }
    }

    /**
     * Uses the message's {@code n} bytes from offset {@code at}, which are {@code src}'s from index {@code from};
     * {@code src} is valid only during the call, and its position and limit are not to be relied on or moved.
     */
    abstract void use(ByteBuffer src, int from, int at, int n);
}
