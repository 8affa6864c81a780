package dev.mpj.api;

import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/**
 * The implementation behind package {@code mpi}: {@code dev.mpj.runtime.MpjRuntime} (or the class named in
 * {@code mpj.backend}) by name, else one found with {@link java.util.ServiceLoader}. It speaks
 * bytes and world ranks: the {@code mpi} classes check arguments, pack and unpack Java arrays
 * (little-endian) and translate communicator ranks. Which threads may call it at once is the thread level
 * it grants in {@link #initThread}: one at a time below {@code THREAD_MULTIPLE}, any under it.
 *
 * <p>Errors are raised as {@code mpi.MPIException} with an MPI error class.
 */
public interface MpiBackend extends BlockingReceiver {
    /** Wildcards, identical to {@code MPI.ANY_SOURCE} / {@code MPI.ANY_TAG}. */
    int ANY_SOURCE = -2;
    int ANY_TAG = -1;

    /** Bootstraps the process into the job (PMI, address exchange, transports). */
    void init(String[] args);

    /**
     * {@link #init} for a program that asks for thread level {@code required} (0 {@code THREAD_SINGLE} ..
     * 3 {@code THREAD_MULTIPLE}); returns the level provided. A backend that cannot be called by several threads
     * at once provides at most {@code THREAD_SERIALIZED} (2), as this default does.
     */
    default int initThread(String[] args, int required) {
        init(args);
        return Math.min(required, 2);
    }

    int rank();

    int size();

    String processorName();

    /** Orderly shutdown: every send started before it is delivered; resources and files are released. */
    void finish();

    /** Ends the whole job with this exit code; never returns normally. */
    void abort(int errorCode);

    /**
     * {@code MPI.Alloc_mem}: a direct little-endian buffer of {@code bytes} bytes (not negative), which sends may
     * read in place; this default is plain direct memory, the mpj runtime's is shared with the ranks of the node.
     */
    default ByteBuffer allocMem(int bytes) {
        return ByteBuffer.allocateDirect(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /** {@code MPI.Free_mem} of a buffer {@link #allocMem} returned; this default keeps no record and checks nothing. */
    default void freeMem(ByteBuffer buffer) {
    }

    /**
     * A direct little-endian buffer of {@code bytes} bytes for the {@code mpi} classes to pack a send into, in memory
     * from which a node peer copies a rendezvous once, straight into its receive; null when sends of that size gain
     * nothing from it (a job without node peers: this default). Asked only for sizes from
     * {@link #transferMemoryFrom}. Not a {@link #allocMem} buffer, so {@link #freeMem} refuses it; given back with
     * {@link #freeTransferMemory} or left to {@link #finish}.
     */
    default ByteBuffer allocTransferMemory(int bytes) {
        return null;
    }

    /**
     * The least send, in bytes, worth packing into {@link #allocTransferMemory} memory (above the eager threshold,
     * where a node peer copies a rendezvous once); {@code Integer.MAX_VALUE}, as this default, when none is.
     */
    default int transferMemoryFrom() {
        return Integer.MAX_VALUE;
    }

    /** Gives back a buffer {@link #allocTransferMemory} returned, once no send reads it any more. */
    default void freeTransferMemory(ByteBuffer buffer) {
    }

    /**
     * Starts a send of {@code data} (position to limit). The bytes are copied or on the wire before the
     * returned operation completes, so the caller may reuse the buffer once it has.
     */
    Operation send(ByteBuffer data, int destWorldRank, int tag, int context, SendMode mode);

    /**
     * A standard-mode send that the runtime can copy out and complete before returning (an eager message with room
     * to go): sends it and returns true, without an operation to keep. Returns false, having done nothing, when the
     * send would have to wait or be tracked; the caller then calls {@link #send}. This default always declines.
     */
    default boolean sendNow(ByteBuffer data, int destWorldRank, int tag, int context) {
        return false;
    }

    /**
     * {@link #sendNow(ByteBuffer, int, int, int)} of the {@code length} bytes of {@code array} from {@code offset},
     * which a runtime may copy out of the array itself rather than through a buffer wrapped around it per send.
     */
    default boolean sendNow(byte[] array, int offset, int length, int destWorldRank, int tag, int context) {
        return sendNow(ByteBuffer.wrap(array, offset, length).slice(), destWorldRank, tag, context);
    }

    /**
     * Posts a receive into {@code room} (position to limit). With {@code room == null} the runtime
     * allocates a buffer of the incoming message's exact size, readable through {@link Operation#buffer()}
     * (used for serialised objects, whose byte size the receiver cannot know).
     * {@code sourceWorldRank} may be {@link #ANY_SOURCE}, {@code tag} may be {@link #ANY_TAG}.
     */
    Operation receive(ByteBuffer room, int sourceWorldRank, int tag, int context);

    /**
     * {@link #receive} of a message of {@code room}'s length, whose bytes the backend may hand to {@code arrival}
     * as they come instead of copying them into {@code room}; those it does not hand over land in {@code room}. This
     * default hands over none.
     */
    default Operation receive(ByteBuffer room, Arrival arrival, int sourceWorldRank, int tag, int context) {
        return receive(room, sourceWorldRank, tag, context);
    }

    /**
     * {@link #receive} that copies the message's first {@code bytes} bytes, whole elements of {@code itemBytes}
     * bytes each, straight into the primitive array {@code array} from its element {@code index}, as they are: no
     * room to wrap around the array or to read out of. Returns null, having done nothing, when the backend cannot;
     * the caller then receives into a room. This default cannot.
     */
    default Operation receiveIntoArray(Object array, int index, int itemBytes, int bytes, int sourceWorldRank,
                                       int tag, int context) {
        return null;
    }

    /**
     * A blocking receive: {@link #receive} then {@link #await} until it completes, without a request the caller
     * must keep. A message that has arrived (or waits in a transport) is taken at once; only when none matches does
     * the receive wait, and only then is {@code pending} asked for the wait report's entry, with the receive's world
     * source and tag. Returns the completed operation, which the caller reads, then may {@link #release}.
     */
    @Override
    default Operation receiveAndWait(ByteBuffer room, int sourceWorldRank, int tag, int context,
                                     PendingCall pending) {
        Operation op = receive(room, sourceWorldRank, tag, context);
        if (!op.isComplete()) {
            await(pending.condition(op, sourceWorldRank, tag));
        }
        return op;
    }

    /**
     * Who runs {@code mpi}'s blocking receives: this backend, or the object it would pass them on to. Every method
     * a woken receiver runs per message is one more that the JIT compiles on its own, each with what it calls
     * inlined, so a backend that only forwards them hands out their real receiver once.
     */
    default BlockingReceiver blockingReceiver() {
        return this;
    }

    /**
     * Hands back a completed operation the caller has read (status, error, buffer) and will not look at again, so
     * the runtime may make it a later receive's. This default keeps nothing.
     */
    @Override
    default void release(Operation completed) {
    }

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

    /**
     * Revokes the communicator's collectives after an error this member raised inside one: every other member
     * is told, and from then on every pending and later operation on its collective context fails, here and
     * there, with {@code ERR_REVOKED} naming this member and {@code cause}, so no member waits for a peer that
     * has left the collective. Does nothing when already revoked, and for the errors the runtime deems a member's
     * own arguments' (decision 0023).
     */
    default void revokeCollectives(CommSpec comm, RuntimeException cause) {
    }

    /** The communicator is freed: its contexts may be reused, so a revocation of them is forgotten. */
    default void release(CommSpec comm) {
    }

    // ---- collectives ----
    // All run on the communicator's collective context. Buffers are byte ranges from position to limit,
    // which are left unchanged; a send range is only read, and may alias the caller's receive range
    // (MPI.IN_PLACE). Roots are communicator ranks. Every member calls the same collective with matching
    // sizes; a received block of the wrong size raises ERR_COUNT (short) or ERR_TRUNCATE (long).
    // The defaults let a point-to-point-only backend exist; the mpj runtime implements them all.

    /** Copies the root's {@code data} into every other member's {@code data} (same length everywhere). */
    default void bcast(CommSpec comm, ByteBuffer data, int root) {
        throw unsupported("bcast");
    }

    /**
     * Concatenates every member's {@code send} (same length everywhere) in rank order into the root's
     * {@code recv}; {@code recv} is ignored elsewhere.
     */
    default void gather(CommSpec comm, ByteBuffer send, ByteBuffer recv, int root) {
        throw unsupported("gather");
    }

    /** Member i's {@code send} lands in the root's {@code recv[i]}, which has its exact length. */
    default void gatherv(CommSpec comm, ByteBuffer send, ByteBuffer[] recv, int root) {
        throw unsupported("gatherv");
    }

    /**
     * Block i of the root's {@code send} (size × the length of {@code recv}) lands in member i's
     * {@code recv}. At the root {@code recv} may be null: its block stays where it is.
     */
    default void scatter(CommSpec comm, ByteBuffer send, ByteBuffer recv, int root) {
        throw unsupported("scatter");
    }

    /** The root's {@code send[i]} lands in member i's {@code recv}; at the root {@code recv} may be null. */
    default void scatterv(CommSpec comm, ByteBuffer[] send, ByteBuffer recv, int root) {
        throw unsupported("scatterv");
    }

    /** Every member's {@code send} (same length everywhere) lands, in rank order, in every {@code recv}. */
    default void allgather(CommSpec comm, ByteBuffer send, ByteBuffer recv) {
        throw unsupported("allgather");
    }

    /** Member i's {@code send} lands in every member's {@code recv[i]}. */
    default void allgatherv(CommSpec comm, ByteBuffer send, ByteBuffer[] recv) {
        throw unsupported("allgatherv");
    }

    /** Block j of member i's {@code send} lands in block i of member j's {@code recv}; equal blocks. */
    default void alltoall(CommSpec comm, ByteBuffer send, ByteBuffer recv) {
        throw unsupported("alltoall");
    }

    /** Member i's {@code send[j]} lands in member j's {@code recv[i]}. */
    default void alltoallv(CommSpec comm, ByteBuffer[] send, ByteBuffer[] recv) {
        throw unsupported("alltoallv");
    }

    /** Combines every member's {@code send} with {@code op} in rank order into the root's {@code recv}. */
    default void reduce(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        throw unsupported("reduce");
    }

    /** {@link #reduce} with the result in every member's {@code recv}. */
    default void allreduce(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op) {
        throw unsupported("allreduce");
    }

    /**
     * {@link #allreduce(CommSpec, ByteBuffer, ByteBuffer, Reduction)} over a member's operand and result where the
     * caller holds them. This default packs the whole operand, reduces the packed vectors and lands the result.
     */
    default void allreduce(CommSpec comm, ReductionOperands vectors, Reduction op) {
        allreduce(comm, vectors.packedOperand(), vectors.resultRoom(), op);
        vectors.landRoom();
    }

    /**
     * Reduces every member's {@code send} (the sum of {@code blockBytes}) and leaves block i of the result,
     * {@code blockBytes[i]} long, in member i's {@code recv}.
     */
    default void reduceScatter(CommSpec comm, ByteBuffer send, ByteBuffer recv, int[] blockBytes, Reduction op) {
        throw unsupported("reduceScatter");
    }

    /** Inclusive prefix reduction: member i's {@code recv} gets the combination of members 0..i. */
    default void scan(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op) {
        throw unsupported("scan");
    }

    // ---- non-blocking collectives ----
    // Each starts the collective of the same name and returns at once; the returned operation completes once the
    // caller's part is done (its buffers may then be reused and read), advanced by every progress pass (poll,
    // await), never by a thread of its own. Its source and tag are the wildcards and its byte count is 0; errors
    // (a block of the wrong size) are reported through Operation.error(). {@code sequence} counts the non-blocking
    // collectives the caller started on this communicator before this one; the members agree on it, as MPI makes
    // them start collectives in the same order, and the runtime keeps outstanding collectives' messages apart by it.

    default Operation ibarrier(CommSpec comm, int sequence) {
        throw unsupported("ibarrier");
    }

    default Operation ibcast(CommSpec comm, int sequence, ByteBuffer data, int root) {
        throw unsupported("ibcast");
    }

    default Operation ireduce(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        throw unsupported("ireduce");
    }

    default Operation iallreduce(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv, Reduction op) {
        throw unsupported("iallreduce");
    }

    default Operation iallgather(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv) {
        throw unsupported("iallgather");
    }

    default Operation ialltoall(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv) {
        throw unsupported("ialltoall");
    }

    /** A backend without a collective is incomplete: the runtime implements every one. */
    private RuntimeException unsupported(String collective) {
        return new UnsupportedOperationException(getClass().getName() + " does not implement the collective "
                + collective);
    }
}
