package dev.mpj.api;

import java.nio.ByteBuffer;

/** A send or receive started on the {@link MpiBackend}; its fields are final once it is complete. */
public interface Operation {
    /** True once the operation has completed (successfully, with an error, or cancelled). No progress is made. */
    boolean isComplete();

    /** World rank of the matched sender (receives); the destination (sends). */
    int source();

    /** Tag of the matched message. */
    int tag();

    /** Bytes received (receives) or sent (sends). */
    int byteCount();

    /** The data of a receive posted with no room of its own; otherwise the room given. */
    ByteBuffer buffer();

    /** Asks to cancel: a receive not yet matched is cancelled; a send cannot be and is left to complete. */
    void cancel();

    boolean isCancelled();

    /** The error the operation ended with (for example truncation), or null. */
    RuntimeException error();
}
