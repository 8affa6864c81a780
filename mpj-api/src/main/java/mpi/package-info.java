/**
 * The MPI API in the mpiJava 1.2 / MPJ Express signatures: {@link mpi.MPI}, {@link mpi.Comm},
 * {@link mpi.Intracomm}, {@link mpi.Intercomm}, {@link mpi.Cartcomm}, {@link mpi.Graphcomm}, {@link mpi.Group},
 * {@link mpi.Datatype}, {@link mpi.Op}, {@link mpi.Request}, {@link mpi.Prequest},
 * {@link mpi.Status}, {@link mpi.MPIException}.
 *
 * <p>This package checks arguments, packs Java buffers into little-endian bytes, translates ranks of
 * communicators to world ranks, and tracks requests; the runtime behind
 * {@code dev.mpj.api.MpiBackend} (loaded by name at {@code MPI.Init}, else found with {@link java.util.ServiceLoader})
 * moves bytes between world ranks.
 *
 * <p>Choices worth knowing:
 * <ul>
 *   <li>Every error is raised as the unchecked {@link mpi.MPIException} with an MPI error class;
 *       error handlers are accepted but do not change that.</li>
 *   <li>Buffers are Java arrays or direct {@link java.nio.ByteBuffer}s (little-endian data,
 *       offsets in elements from index 0, position and limit ignored). A {@code byte[]} or
 *       {@code ByteBuffer} is sent and received without an intermediate copy.</li>
 *   <li>Datatype sizes and extents count buffer elements, as in mpiJava ({@code MPI.INT.Size()}
 *       is 1); {@code MPI.INT2} and the other pair types are two elements per item.</li>
 *   <li>{@code Waitsome} and {@code Testsome} return null when no request is active (MPI's
 *       {@code MPI_UNDEFINED} outcount); {@code Testsome} returns an empty array when requests are
 *       active but none has completed.</li>
 *   <li>Buffered sends copy their data; the attached buffer bounds the bytes outstanding.</li>
 *   <li>{@code Init_thread} provides the level asked for, {@code THREAD_MULTIPLE} included; below it a second
 *       thread that calls MPI while another is inside gets {@code ERR_OTHER}.</li>
 *   <li>{@code MPI.COMM_NULL} is {@code null}, as in MPJ Express.</li>
 * </ul>
 */
package mpi;
