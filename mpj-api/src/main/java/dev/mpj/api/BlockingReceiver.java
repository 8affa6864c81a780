package dev.mpj.api;

import java.nio.ByteBuffer;

/**
 * What a blocking receive calls ({@link MpiBackend#blockingReceiver}): the receive and the hand-back of its
 * operation, without the backend between the caller and the code that does them.
 */
public interface BlockingReceiver {
    /** As {@link MpiBackend#receiveAndWait}. */
    Operation receiveAndWait(ByteBuffer room, int sourceWorldRank, int tag, int context, PendingCall pending);

    /**
     * {@link #receiveAndWait(ByteBuffer, int, int, int, PendingCall)} into {@code room} when {@code array} is null;
     * else a blocking receive of at most {@code bytes} bytes straight into {@code array}, a {@code char[]},
     * {@code short[]}, {@code int[]}, {@code long[]}, {@code float[]} or {@code double[]}, from its element
     * {@code index}, each element {@code itemBytes} bytes: the message's bytes (little-endian, as every sender packs
     * them) are copied in whole elements into the array as this platform lays them out, which the caller has checked
     * is little-endian too, so no room is filled and read again. Only the whole elements of a message are copied; a
     * longer message fails with {@code ERR_TRUNCATE} as into a room, after filling the array. Returns null for an
     * array when this receiver does not copy into arrays: the caller then receives into a room. One method for both,
     * so that the JIT compiles one receive whichever buffers a program receives into.
     */
    default Operation receiveAndWait(ByteBuffer room, Object array, int index, int itemBytes, int bytes,
                                     int sourceWorldRank, int tag, int context, PendingCall pending) {
        return array == null ? receiveAndWait(room, sourceWorldRank, tag, context, pending) : null;
    }

    /** As {@link MpiBackend#release(Operation)}. */
    void release(Operation completed);
}
