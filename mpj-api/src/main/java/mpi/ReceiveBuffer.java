package mpi;

import dev.mpj.api.Operation;
import java.nio.ByteBuffer;

/**
 * Where a posted receive lands and how its bytes reach the user's buffer. A receive into a direct
 * {@code ByteBuffer} or a {@code byte[]} lands in place; other buffers land in a temporary room and
 * are unpacked when the receive completes; serialised objects get a room sized by the runtime.
 */
final class ReceiveBuffer {
    /** Moves the received bytes of a completed, error-free receive into the user's buffer. */
    @FunctionalInterface
    interface Unpacker {
        void unpack(Operation completed, Status status);
    }

    /** Nothing to copy. Not a lambda, for the reason {@link dev.mpj.api.AllComplete} is not one. */
    private static final Unpacker IN_PLACE = new Unpacker() {
        @Override
        public void unpack(Operation completed, Status status) {
        }
    };

    private final ByteBuffer room;
    private final Unpacker unpacker;

    private ReceiveBuffer(ByteBuffer room, Unpacker unpacker) {
        this.room = room;
        this.unpacker = unpacker;
    }

    /** The runtime writes straight into {@code room}, which is (a slice of) the user's buffer. */
    static ReceiveBuffer inPlace(ByteBuffer room) {
        return new ReceiveBuffer(room, IN_PLACE);
    }

    /** The runtime writes into {@code room} (or allocates one if null); {@code unpacker} copies it out. */
    static ReceiveBuffer unpacking(ByteBuffer room, Unpacker unpacker) {
        return new ReceiveBuffer(room, unpacker);
    }

    /** The room to hand to {@code MpiBackend.receive}; null asks the runtime to allocate the exact size. */
    ByteBuffer room() {
        return room;
    }

    void complete(Operation completed, Status status) {
        unpacker.unpack(completed, status);
    }
}
