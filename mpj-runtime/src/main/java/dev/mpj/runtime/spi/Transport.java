package dev.mpj.runtime.spi;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A way to move frames between ranks of a job (TCP between nodes, shared memory inside one). The engine
 * hands it whole frames ({@link FrameHeader} bytes followed by the payload) and receives whole frames
 * through the {@link FrameSink} of its {@link TransportContext}. Frames sent from one rank to one peer
 * arrive in the order they were sent.
 */
public interface Transport extends AutoCloseable {
    /** Short name, as used in settings and logs ("tcp", "shm"). */
    String name();

    /**
     * Starts listening and returns this rank's address, an opaque byte string that goes into the business
     * card and is given back to peers through {@link #addPeer}.
     */
    byte[] start(TransportContext context) throws IOException;

    /** Makes a peer reachable: its address as its own {@link #start} returned it. */
    void addPeer(int rank, byte[] address);

    /**
     * Sends one frame to {@code peer}: {@code header} (exactly {@link FrameHeader#LENGTH} bytes, position
     * to limit) then {@code payload} (position to limit, may be empty). Both buffers are copied or written
     * before this returns, so the caller may reuse them at once. A pushing transport never blocks waiting for
     * the peer (a connection not yet open is opened and the frame queued); a {@linkplain #needsPolling polled}
     * one may wait for room in the peer's queue, but only while it keeps delivering its own inbound frames
     * to the sink, so two ranks sending to each other both progress.
     */
    void send(int peer, ByteBuffer header, ByteBuffer payload);

    /**
     * {@link #send} of the {@code length} bytes of {@code payload} from {@code offset}: a transport that copies from
     * the array itself spares the sender a buffer wrapped around it per message.
     */
    default void send(int peer, ByteBuffer header, byte[] payload, int offset, int length) {
        send(peer, header, ByteBuffer.wrap(payload, offset, length).slice());
    }

    /**
     * Delivers to the sink, on the calling thread, the frames that have arrived for this rank and returns how
     * many. The engine calls it on every progress pass from the thread that drives MPI (never concurrently
     * with {@link #send}); a transport whose own threads push frames to the sink returns 0.
     */
    default int poll() {
        return 0;
    }

    /**
     * Where a blocking receive may take its message in place ({@link DirectSource}), or null: a pushing transport
     * has none. Asked after {@link #start}.
     */
    default DirectSource directSource() {
        return null;
    }

    /**
     * Whether frames arrive only through {@link #poll} (shared memory: another process cannot wake this
     * one), so a waiting engine must poll again within a short bound instead of parking until woken.
     */
    default boolean needsPolling() {
        return false;
    }

    /**
     * Whether the peers it reaches share this rank's memory (ranks of one node), so a peer can map the regions of
     * {@code MPI.Alloc_mem} and copy a message out of them itself.
     */
    default boolean sharesMemory() {
        return false;
    }

    /** Flushes what was sent, tells connected peers this rank leaves in order, and releases everything. */
    @Override
    void close();
}
