package dev.mpj.runtime.spi;

import java.nio.ByteBuffer;

/** Point-to-point messages between ranks during {@code MPI.Init}, for the node roots' allgather. */
public interface InitMessenger extends AutoCloseable {
    /**
     * Sends {@code out} (position to limit) to {@code dest} and receives exactly {@code in.remaining()} bytes from
     * {@code source} into {@code in} (from its position), both under {@code tag}; returns when both are done.
     * Both are in flight together, so every rank of a ring may call it at once without deadlock.
     *
     * @throws ExchangeException when the message received is not exactly the expected length, or a peer cannot
     *                           be reached in time
     */
    void sendReceive(ByteBuffer out, int dest, ByteBuffer in, int source, int tag);

    /** Releases what the messages needed (sockets of their own, if any); after the exchange. */
    @Override
    default void close() {
    }
}
