package dev.mpj.runtime.connect;

import java.util.concurrent.CompletableFuture;

/**
 * A transport whose connections can be opened ahead of the first message, and which counts them. The TCP
 * transport implements it; {@link EagerConnections} drives it during {@code MPI.Init}.
 */
public interface PeerConnector {
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
