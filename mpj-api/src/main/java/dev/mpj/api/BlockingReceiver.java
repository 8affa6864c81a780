package dev.mpj.api;

import java.nio.ByteBuffer;

/**
 * What a blocking receive calls ({@link MpiBackend#blockingReceiver}): the receive and the hand-back of its
 * operation, without the backend between the caller and the code that does them.
 */
public interface BlockingReceiver {
    /** As {@link MpiBackend#receiveAndWait}. */
    Operation receiveAndWait(ByteBuffer room, int sourceWorldRank, int tag, int context, PendingCall pending);

    /** As {@link MpiBackend#release(Operation)}. */
    void release(Operation completed);
}
