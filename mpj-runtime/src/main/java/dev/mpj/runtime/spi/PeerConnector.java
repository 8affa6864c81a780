package dev.mpj.runtime.spi;

import java.util.concurrent.CompletableFuture;

/**
 * A transport whose connections can be opened ahead of the first message, and which counts them. The TCP
 * transport implements it; the runtime drives it during {@code MPI.Init}.
 */
public interface PeerConnector {
    /**
     * Completes when the transport can open and accept connections (the TCP transport starts its event loops in
     * the background), so connect times measure the network, not the start.
     */
    CompletableFuture<Void> ready();

    /**
     * Opens the connection to {@code peer} unless one is open or opening (in either direction), and returns
     * {@link #connected(int)}. Never blocks.
     */
    CompletableFuture<Void> connect(int peer);

    /**
     * Completes when a connection with {@code peer} is ready to carry frames, whichever rank opened it;
     * completes exceptionally if the peer cannot be reached.
     */
    CompletableFuture<Void> connected(int peer);

    /** Counts so far. */
    ConnectionStats connectionStats();
}
