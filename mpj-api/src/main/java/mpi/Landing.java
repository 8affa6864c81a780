package mpi;

import dev.mpj.api.CollectiveOperation;
import dev.mpj.api.Operation;
import dev.mpj.api.ScratchBuffer;
import java.nio.ByteBuffer;

/**
 * Where the result of a collective lands in a user's buffer: the bytes the runtime fills, then the
 * datatype's unpacking into the buffer, exactly as for a completed receive ({@link Datatype#receiveBuffer}).
 * A {@code byte[]} or direct {@code ByteBuffer} is filled in place; other arrays go through a room.
 */
final class Landing {
    private final ReceiveBuffer target;
    private final ByteBuffer room;
    private final int bytes;

    private Landing(ReceiveBuffer target) {
        this.target = target;
        this.room = target.room();
        this.bytes = room.remaining();
    }

    /** Room for {@code count} items of {@code type} at {@code offset} of {@code buf}; arguments are checked. */
    static Landing of(Datatype type, Object buf, int offset, int count) {
        return of(type, buf, offset, count, null);
    }

    /** {@link #of(Datatype, Object, int, int)} with a room, where one is needed, from {@code scratch} (null: allocated). */
    static Landing of(Datatype type, Object buf, int offset, int count, ScratchBuffer scratch) {
        return new Landing(type.receiveBuffer(buf, offset, count, scratch));
    }

    /** The bytes for the runtime to fill, all of them. */
    ByteBuffer room() {
        return room;
    }

    /** Moves the filled room into the user's buffer. */
    void finish() {
        target.complete(new Filled(room, bytes), new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, bytes));
    }

    /** This landing as the receive buffer of a request: the request's completion moves the room into the buffer. */
    ReceiveBuffer onCompletion() {
        return ReceiveBuffer.unpacking(null, new ReceiveBuffer.Unpacker() {
            @Override
            public void unpack(Operation completed, Status status) {
                finish();
            }
        });
    }

    static void finishAll(Landing[] landings) {
        for (Landing l : landings) {
            l.finish();
        }
    }

    static ByteBuffer[] rooms(Landing[] landings) {
        ByteBuffer[] rooms = new ByteBuffer[landings.length];
        for (int i = 0; i < landings.length; i++) {
            rooms[i] = landings[i].room();
        }
        return rooms;
    }

    /** The room seen as a completed receive of all its bytes, which is what the unpacking reads. */
    private static final class Filled extends CollectiveOperation {
        private final ByteBuffer buffer;
        private final int byteCount;

        Filled(ByteBuffer buffer, int byteCount) {
            this.buffer = buffer;
            this.byteCount = byteCount;
        }

        @Override
        public boolean isComplete() {
            return true;
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
        public RuntimeException error() {
            return null;
        }
    }
}
