package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.PmiException;

import java.util.List;

/**
 * One process's connection to its process manager, whatever the dialect (PMI-1 wire, PMI-2 wire, PMIx,
 * singleton). Strictly request/reply; not thread-safe. Keys and values are plain strings here: the
 * caller keeps values within {@link #maxValueLength()} and free of spaces, newlines and ';'
 * ({@link PmiKvs} hex-encodes and chunks bytes). Every operation is counted in {@link #counters()}.
 */
public interface PmiClient extends AutoCloseable {
    int rank();

    int size();

    /** The KVS (PMI-1) or job id (PMI-2) of this job; unique per job and usable in file names after sanitising. */
    String jobId();

    /** {@code PMI_process_mapping} as the process manager gives it, or "" when it gives none. */
    String processMapping();

    /**
     * The node of every rank, indexed by rank (equal numbers, same node), where the process manager tells it
     * rank by rank (PMIx's {@code PMIX_NODEID}), else null. Consulted when {@link #processMapping()} is empty.
     */
    default int[] nodeIds() {
        return null;
    }

    /** Longest value a single put may carry on this server (674 for PMI-1, as MPICH). */
    int maxValueLength();

    /** Publishes a key; visible to the job (the caller included) only after the next {@link #barrier()}. */
    void put(String key, String value);

    /** The value of a key published before the last barrier, or null when there is none. */
    String get(String key);

    /** Collective over the whole job; publishes pending puts. Same as {@link #barrierBegin()} then {@link #barrierEnd()}. */
    void barrier();

    /**
     * First half of a split {@link #barrier()}: enters the barrier and returns without waiting, so local work
     * (mapping the node segment, opening the listener) overlaps the wait. Nothing but {@link #barrierEnd()}
     * may follow on this client. Dialects that cannot split do the whole barrier here.
     */
    default void barrierBegin() {
        barrier();
    }

    /** Second half of a split barrier: waits until every rank has entered it. */
    default void barrierEnd() {
    }

    /**
     * Readies the get path for the gets that follow a pending {@link #barrierBegin()}, with local work only (no
     * request): what a client can do so that they run faster after the barrier. Nothing by default.
     */
    default void prepareGets() {
    }

    /** Ends the conversation in order (always sent before the process exits normally). */
    void finish();

    /** Asks the process manager to end the whole job with this exit code. Does not wait for a reply. */
    void abort(int exitCode, String message);

    /**
     * The node-scoped attribute store, where the dialect offers one (PMI-2), else null. Node-local steps use
     * it to skip the global barrier.
     */
    default PmiNodeAttributes nodeAttributes() {
        return null;
    }

    /** Whether {@link #ring} is served: PMI-2 under a process manager known to serve PMIX_Ring. */
    default boolean hasRing() {
        return false;
    }

    /**
     * PMIX_Ring: collective over the job; every rank gives a value (within {@link #maxValueLength()}) and learns
     * its position in the ring and the values of its left and right neighbours there. The ring keeps the ranks
     * of a node consecutive but need not follow rank order (PMI.md §3.6).
     *
     * @throws PmiException when the client has no ring ({@link #hasRing()} is false)
     */
    default RingNeighbours ring(String value) {
        throw new PmiException("the " + dialect() + " PMI client has no PMIX_Ring");
    }

    /** Whether {@link #allgather} is served: the process manager offered it when the client started (mpjrun). */
    default boolean hasAllgather() {
        return false;
    }

    /**
     * Collective over the job: every rank gives a value (within {@link #maxValueLength()}, without ',') and
     * receives every rank's value, in rank order, in one request (PMI.md §3.7). Independent of puts and barriers.
     *
     * @throws PmiException when the client has no allgather ({@link #hasAllgather()} is false)
     */
    default List<String> allgather(String value) {
        throw new PmiException("the " + dialect() + " PMI client has no allgather");
    }

    /** The name of the dialect in use ("pmi1", "pmi2", "pmix", "singleton"). */
    String dialect();

    PmiCounters counters();

    /** Closes the connection without the finalize handshake (after {@link #finish()} or on failure). */
    @Override
    void close();
}
