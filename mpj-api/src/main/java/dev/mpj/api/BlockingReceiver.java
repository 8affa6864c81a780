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
     * A blocking receive, as {@link #receiveAndWait}, of at most {@code bytes} bytes straight into {@code array}, a
     * {@code char[]}, {@code short[]}, {@code int[]}, {@code long[]}, {@code float[]} or {@code double[]}, from its
     * element {@code index}, each element {@code itemBytes} bytes: the message's bytes (little-endian, as every
     * sender packs them) are copied in whole elements into the array as this platform lays them out, which the
     * caller has checked is little-endian too, so no room is filled and read again. Only the whole elements of a
     * message are copied; a longer message fails with {@code ERR_TRUNCATE} as into a room, after filling the array.
     * Null when this receiver does not copy into arrays: the caller then receives into a room.
     */
    default Operation receiveIntoArray(Object array, int index, int itemBytes, int bytes, int sourceWorldRank,
                                       int tag, int context, PendingCall pending) {
        return null;
    }

    /** As {@link MpiBackend#release(Operation)}. */
    void release(Operation completed);
}
