package mpi;

import java.nio.ByteBuffer;

/**
 * The MPI environment: start-up and shut-down, the predefined communicators and datatypes, and the
 * constants of MPI, with the mpiJava 1.2 / MPJ Express names.
 *
 * <p>{@link #Init} finds the mpj runtime (an implementation of {@code dev.mpj.api.MpiBackend} on the class path:
 * {@code dev.mpj.runtime.MpjRuntime} or the class named in the {@code mpj.backend} property by name, else one
 * registered with {@link java.util.ServiceLoader}) and starts it. Every communication call made
 * before {@code Init} or after {@link #Finalize} raises {@link MPIException} ({@code ERR_OTHER}).
 * The predefined communicators are usable as soon as {@code Init} returns. {@link #Init_thread} provides the
 * thread level asked for: with {@link #THREAD_MULTIPLE} any thread may call MPI at any time; below it one thread
 * at a time, and a second thread that calls MPI while another is inside gets {@code ERR_OTHER}.
 */
public final class MPI {
    private MPI() {
    }

    // ---- wildcards and limits ----
    public static final int ANY_SOURCE = -2;
    public static final int ANY_TAG = -1;
    public static final int PROC_NULL = -3;
    /** The root argument of an intercommunicator broadcast in the process that sends ({@link Intercomm#Bcast}). */
    public static final int ROOT = -4;
    public static final int UNDEFINED = -32766;
    /** The largest tag; also the key under which {@link Comm#Attr_get} gives it. */
    public static final int TAG_UB = Integer.MAX_VALUE;
    /** Attribute keys of {@link Comm#Attr_get}: the host process, the processes that can do I/O, whether clocks agree. */
    public static final int HOST = 1;
    public static final int IO = 2;
    public static final int WTIME_IS_GLOBAL = 3;
    /** Topology kinds ({@code Topo_test}), numbered as in MPICH. */
    public static final int GRAPH = 1;
    public static final int CART = 2;

    // ---- comparison results ----
    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;

    // ---- thread levels ----
    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;

    // ---- buffer overheads ----
    /** Bytes of the attached buffer charged to each buffered send on top of its data. */
    public static final int BSEND_OVERHEAD = 64;
    /** Extra room a send or receive buffer needs: none, the runtime frames messages itself. */
    public static final int SEND_OVERHEAD = 0;
    public static final int RECV_OVERHEAD = 0;
    /** Processors (cores) available to this process. */
    public static final int NUM_OF_PROCESSORS = Runtime.getRuntime().availableProcessors();

    // ---- error classes (those of MPIException) ----
    public static final int SUCCESS = MPIException.SUCCESS;
    public static final int ERR_BUFFER = MPIException.ERR_BUFFER;
    public static final int ERR_COUNT = MPIException.ERR_COUNT;
    public static final int ERR_TYPE = MPIException.ERR_TYPE;
    public static final int ERR_TAG = MPIException.ERR_TAG;
    public static final int ERR_COMM = MPIException.ERR_COMM;
    public static final int ERR_RANK = MPIException.ERR_RANK;
    public static final int ERR_ROOT = MPIException.ERR_ROOT;
    public static final int ERR_GROUP = MPIException.ERR_GROUP;
    public static final int ERR_OP = MPIException.ERR_OP;
    public static final int ERR_TOPOLOGY = MPIException.ERR_TOPOLOGY;
    public static final int ERR_DIMS = MPIException.ERR_DIMS;
    public static final int ERR_ARG = MPIException.ERR_ARG;
    public static final int ERR_UNKNOWN = MPIException.ERR_UNKNOWN;
    public static final int ERR_TRUNCATE = MPIException.ERR_TRUNCATE;
    public static final int ERR_OTHER = MPIException.ERR_OTHER;
    public static final int ERR_INTERN = MPIException.ERR_INTERN;
    public static final int ERR_IN_STATUS = MPIException.ERR_IN_STATUS;
    public static final int ERR_PENDING = MPIException.ERR_PENDING;
    public static final int ERR_REQUEST = MPIException.ERR_REQUEST;
    public static final int ERR_PROC_FAILED = MPIException.ERR_PROC_FAILED;
    public static final int ERR_REVOKED = MPIException.ERR_REVOKED;

    // ---- datatypes ----
    /** Holds no data; cannot describe a buffer. */
    public static final Datatype NULL = new Datatype("MPI.NULL", null, 0);
    public static final Datatype BYTE = new Datatype("MPI.BYTE", ElementType.BYTE, 1);
    public static final Datatype CHAR = new Datatype("MPI.CHAR", ElementType.CHAR, 1);
    public static final Datatype SHORT = new Datatype("MPI.SHORT", ElementType.SHORT, 1);
    /** One byte per value on the wire, 0 or 1. */
    public static final Datatype BOOLEAN = new Datatype("MPI.BOOLEAN", ElementType.BOOLEAN, 1);
    public static final Datatype INT = new Datatype("MPI.INT", ElementType.INT, 1);
    public static final Datatype LONG = new Datatype("MPI.LONG", ElementType.LONG, 1);
    public static final Datatype FLOAT = new Datatype("MPI.FLOAT", ElementType.FLOAT, 1);
    public static final Datatype DOUBLE = new Datatype("MPI.DOUBLE", ElementType.DOUBLE, 1);
    /** Packed data: bytes, over a {@code byte[]}. */
    public static final Datatype PACKED = new PackedDatatype("MPI.PACKED");
    /** Lower- and upper-bound markers for derived datatypes; they hold no data. */
    public static final Datatype LB = new Datatype("MPI.LB", null, 0);
    public static final Datatype UB = new Datatype("MPI.UB", null, 0);
    /** Serializable objects in an {@code Object[]}. */
    public static final Datatype OBJECT = new ObjectDatatype("MPI.OBJECT");
    /** Pairs of two values (value and index, for MAXLOC and MINLOC) over the matching primitive array; counts are in pairs. */
    public static final Datatype SHORT2 = new Datatype("MPI.SHORT2", ElementType.SHORT, 2);
    public static final Datatype INT2 = new Datatype("MPI.INT2", ElementType.INT, 2);
    public static final Datatype LONG2 = new Datatype("MPI.LONG2", ElementType.LONG, 2);
    public static final Datatype FLOAT2 = new Datatype("MPI.FLOAT2", ElementType.FLOAT, 2);
    public static final Datatype DOUBLE2 = new Datatype("MPI.DOUBLE2", ElementType.DOUBLE, 2);
    /**
     * The MPI names of the pair types, the same objects as the mpiJava ones ({@code MPI_2INT} is {@link #INT2}).
     * As there, value and index share the value's primitive: a {@code DOUBLE_INT} pair is two doubles.
     */
    public static final Datatype SHORT_INT = SHORT2;
    public static final Datatype LONG_INT = LONG2;
    public static final Datatype FLOAT_INT = FLOAT2;
    public static final Datatype DOUBLE_INT = DOUBLE2;

    // ---- reduction operations (where each applies: see Op) ----
    public static final Op MAX = new Op(Op.Kind.MAX);
    public static final Op MIN = new Op(Op.Kind.MIN);
    public static final Op SUM = new Op(Op.Kind.SUM);
    public static final Op PROD = new Op(Op.Kind.PROD);
    public static final Op LAND = new Op(Op.Kind.LAND);
    public static final Op BAND = new Op(Op.Kind.BAND);
    public static final Op LOR = new Op(Op.Kind.LOR);
    public static final Op BOR = new Op(Op.Kind.BOR);
    public static final Op LXOR = new Op(Op.Kind.LXOR);
    public static final Op BXOR = new Op(Op.Kind.BXOR);
    /** On the pair types ({@link #INT2}, ...): the largest value and, among equal ones, the lowest index. */
    public static final Op MAXLOC = new Op(Op.Kind.MAXLOC);
    /** On the pair types ({@link #INT2}, ...): the smallest value and, among equal ones, the lowest index. */
    public static final Op MINLOC = new Op(Op.Kind.MINLOC);

    /**
     * Given as the send buffer of a collective where MPI allows it, says that the data are already in the
     * receive buffer (at the caller's block, or all of it for reductions); for {@code Scatter} and
     * {@code Scatterv} the root gives it as the receive buffer, keeping its block where it is.
     */
    public static final Object IN_PLACE = new Object() {
        @Override
        public String toString() {
            return "MPI.IN_PLACE";
        }
    };

    // ---- communicators and requests ----
    /** All processes of the job. Bound to the runtime by {@link #Init}. */
    public static final Intracomm COMM_WORLD = new Intracomm("MPI.COMM_WORLD");
    /** The calling process alone. Bound to the runtime by {@link #Init}. */
    public static final Intracomm COMM_SELF = new Intracomm("MPI.COMM_SELF");
    /**
     * The null communicator: what {@link Intracomm#Split} with colour {@link #UNDEFINED},
     * {@link Intracomm#Create} for a non-member and the topology constructors for a process left out
     * return. It is {@code null}, as in MPJ Express, so {@code comm == MPI.COMM_NULL} and
     * {@code comm == null} say the same.
     */
    public static final Comm COMM_NULL = null;
    /** The group with no members. */
    public static final Group GROUP_EMPTY = new Group(new int[0], -1);
    /** The null request: waiting on it returns an empty status at once. */
    public static final Request REQUEST_NULL = new Request();

    // ---- error handlers ----
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler("MPI.ERRORS_ARE_FATAL");
    public static final Errhandler ERRORS_RETURN = new Errhandler("MPI.ERRORS_RETURN");
    private static Errhandler errhandler = ERRORS_ARE_FATAL;

    private static final long TIME_ORIGIN = System.nanoTime();

    // ---- start-up and shut-down ----

    /**
     * Starts MPI in this process; returns {@code args} unchanged. Raises {@code ERR_OTHER} if MPI is
     * already initialised or finalised, or if no mpj runtime is on the class path.
     */
    public static String[] Init(String[] args) {
        Environment.init(args, THREAD_SINGLE);
        return args;
    }

    /**
     * {@link #Init} asking for thread level {@code required} (MPJ Express signature; {@code provided}
     * is ignored, read the level granted with {@link #queryThread()}). Returns {@code args}.
     */
    public static String[] initThread(int required, int provided, String[] args) {
        Environment.init(args, required);
        return args;
    }

    /** {@link #Init} asking for thread level {@code required}; returns the level provided (the one asked for). */
    public static int Init_thread(String[] args, int required) {
        return Environment.init(args, required);
    }

    /** The thread level provided at initialisation. */
    public static int queryThread() {
        return Environment.threadLevel();
    }

    /** Whether the calling thread is the one that initialised MPI. */
    public static boolean isMainThread() {
        return Environment.isMainThread();
    }

    /** Completes buffered sends and shuts MPI down; MPI cannot be used (or initialised) again. */
    public static void Finalize() {
        Environment.finish();
    }

    /** Whether {@link #Init} has been called (it stays true after {@link #Finalize}). */
    public static boolean Initialized() {
        return Environment.initialized();
    }

    /** Whether {@link #Finalize} has been called. */
    public static boolean Finalized() {
        return Environment.finalized();
    }

    // ---- time and place ----

    /** Elapsed wall-clock time in seconds since this class was loaded. */
    public static double Wtime() {
        // from a near origin, so the double keeps nanosecond resolution
        return (System.nanoTime() - TIME_ORIGIN) * 1e-9;
    }

    /** The resolution of {@link #Wtime()} in seconds. */
    public static double Wtick() {
        return 1e-9;
    }

    /** The name of the node this process runs on. */
    public static String Get_processor_name() {
        return Environment.backend().processorName();
    }

    // ---- memory ----

    /**
     * Memory for message buffers, as {@code MPI_Alloc_mem}: a direct little-endian {@link ByteBuffer} of {@code size}
     * bytes, zeroed. The runtime places it in memory the ranks of this node can map, so a large message sent from it
     * to one of them is copied once, by the receiver, out of it; anywhere else it is an ordinary direct buffer. Give
     * it back with {@link #Free_mem}; as in C, it must not be freed, or written, while a send from it is pending.
     *
     * @throws MPIException {@code ERR_ARG} when {@code size} is negative
     */
    public static ByteBuffer Alloc_mem(int size) {
        if (size < 0) {
            throw new MPIException(MPI.ERR_ARG, "Alloc_mem: size " + size + " is negative");
        }
        return Environment.backend().allocMem(size);
    }

    /**
     * Gives back memory {@link #Alloc_mem} returned (the buffer itself, not a slice or duplicate of it). The buffer
     * stays readable memory until it is unreachable, but is no longer shared.
     *
     * @throws MPIException {@code ERR_BUFFER} when {@code buffer} is not from {@code Alloc_mem} or was freed already
     */
    public static void Free_mem(ByteBuffer buffer) {
        Environment.backend().freeMem(buffer);
    }

    // ---- buffered-send buffer ----

    /**
     * Attaches the buffer that bounds outstanding buffered sends ({@code Bsend}, {@code Ibsend}):
     * they may together hold its capacity, counting {@link #BSEND_OVERHEAD} bytes per message. Only
     * one buffer may be attached ({@code ERR_BUFFER} otherwise).
     */
    public static void Buffer_attach(ByteBuffer buffer) {
        Environment.attach(buffer);
    }

    /** Waits until all buffered sends have completed, then detaches and returns the buffer (null if none). */
    public static ByteBuffer Buffer_detach() {
        return Environment.detach();
    }

    // ---- error handlers ----

    /**
     * Sets the error handler. Kept for source compatibility: errors are always raised as
     * {@link MPIException}, whichever handler is set.
     */
    public static void Errorhandler_set(Errhandler handler) {
        if (handler == null) {
            throw new MPIException(ERR_ARG, "Errorhandler_set: handler is null");
        }
        errhandler = handler;
    }

    /** The error handler last set ({@link #ERRORS_ARE_FATAL} by default). */
    public static Errhandler Errorhandler_get() {
        return errhandler;
    }
}
