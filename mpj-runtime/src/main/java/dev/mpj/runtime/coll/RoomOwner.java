package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * The owner word of a room in the node segment and one communicator's identity in it. A communicator claims a free
 * room by writing its identity there; the word never changes after but to {@link #RETIRED}, so every member reads
 * the same owner and decides alike, and a room another communicator holds is not used.
 */
final class RoomOwner {
    /** A free room's owner word. */
    static final long FREE = 0;
    /** The owner word of a room taken away after a failure: no identity equals it. */
    static final long RETIRED = -1;

    private final UnsafeBuffer room;
    private final int offset;
    private final long identity;

    /** The owner word at {@code offset} of {@code room}, as communicator {@code identity} sees it. */
    RoomOwner(UnsafeBuffer room, int offset, long identity) {
        this.room = room;
        this.offset = offset;
        this.identity = identity;
    }

    /** The owner word at {@code offset} of {@code room}, as {@code comm} sees it. */
    RoomOwner(UnsafeBuffer room, int offset, CommSpec comm) {
        this(room, offset, identity(comm));
    }

    /** The context and the members: never {@link #FREE} nor {@link #RETIRED}. */
    static long identity(CommSpec comm) {
        return ((long) (comm.collectiveContext() + 1) << 32) | (Arrays.hashCode(comm.worldRanks()) & 0xffffffffL);
    }

    /** Writes this identity into the word if the room is free; whether the room is this communicator's. */
    boolean claim() {
        return room.compareAndSetLong(offset, FREE, identity) || held();
    }

    /** Whether the room is still this communicator's: a failed collective takes it away for good. */
    boolean held() {
        return room.getLongVolatile(offset) == identity;
    }

    /** Takes the room away for good if it is this communicator's. */
    void retire() {
        room.compareAndSetLong(offset, identity, RETIRED);
    }

    /** Takes the room away for good if it is free or this communicator's. */
    void retireEvenIfFree() {
        if (!room.compareAndSetLong(offset, FREE, RETIRED)) {
            retire();
        }
    }
}
