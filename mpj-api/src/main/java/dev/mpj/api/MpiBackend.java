package dev.mpj.api;

import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/**
 * The implementation behind package {@code mpi}, found with {@link java.util.ServiceLoader}. It speaks
 * bytes and world ranks: the {@code mpi} classes check arguments, pack and unpack Java arrays
 * (little-endian) and translate communicator ranks. Called from one thread at a time (the MPI
 * thread levels up to {@code THREAD_SERIALIZED}); nothing here is re-entrant.
 *
 * <p>Errors are raised as {@code mpi.MPIException} with an MPI error class.
 */
public interface MpiBackend {
    /** Wildcards, identical to {@code MPI.ANY_SOURCE} / {@code MPI.ANY_TAG}. */
    int ANY_SOURCE = -2;
    int ANY_TAG = -1;

    /** Bootstraps the process into the job (PMI, address exchange, transports). */
    void init(String[] args);

    int rank();

    int size();

    String processorName();

    /** Orderly shutdown: every send started before it is delivered; resources and files are released. */
    void finish();

    /** Ends the whole job with this exit code; never returns normally. */
    void abort(int errorCode);

    /**
     * Starts a send of {@code data} (position to limit). The bytes are copied or on the wire before the
     * returned operation completes, so the caller may reuse the buffer once it has.
     */
    Operation send(ByteBuffer data, int destWorldRank, int tag, int context, SendMode mode);

    /**
     * Posts a receive into {@code room} (position to limit). With {@code room == null} the runtime
     * allocates a buffer of the incoming message's exact size, readable through {@link Operation#buffer()}
     * (used for serialised objects, whose byte size the receiver cannot know).
     * {@code sourceWorldRank} may be {@link #ANY_SOURCE}, {@code tag} may be {@link #ANY_TAG}.
     */
    Operation receive(ByteBuffer room, int sourceWorldRank, int tag, int context);

    /** The envelope of the first message that a receive with these arguments would match now, or null. */
    Envelope probe(int sourceWorldRank, int tag, int context);

    /**
     * Drives progress until {@code done} answers true, idling with back-off (spin, yield, park) between
     * passes. Throws {@code MPIException} (ERR_PROC_FAILED) if the job fails while waiting.
     */
    void await(BooleanSupplier done);

    /** One progress pass that never waits. */
    void poll();

    /** Blocks until every member of the communicator has entered the barrier. */
    void barrier(CommSpec comm);
}
