package mpi;

/**
 * The error every MPI call raises. Unchecked, as in MPJ Express, so programs that do not declare it
 * still compile. {@link #getErrorClass()} gives the MPI error class (the {@code ERR_*} constants,
 * numbered as in MPICH).
 */
public class MPIException extends RuntimeException {
    public static final int SUCCESS = 0;
    public static final int ERR_BUFFER = 1;
    public static final int ERR_COUNT = 2;
    public static final int ERR_TYPE = 3;
    public static final int ERR_TAG = 4;
    public static final int ERR_COMM = 5;
    public static final int ERR_RANK = 6;
    public static final int ERR_ROOT = 7;
    public static final int ERR_GROUP = 8;
    public static final int ERR_OP = 9;
    public static final int ERR_TOPOLOGY = 10;
    public static final int ERR_DIMS = 11;
    public static final int ERR_ARG = 12;
    public static final int ERR_UNKNOWN = 13;
    public static final int ERR_TRUNCATE = 14;
    public static final int ERR_OTHER = 15;
    public static final int ERR_INTERN = 16;
    public static final int ERR_IN_STATUS = 17;
    public static final int ERR_PENDING = 18;
    public static final int ERR_REQUEST = 19;
    /** A peer process failed or the job was aborted (MPICH's MPIX_ERR_PROC_FAILED). */
    public static final int ERR_PROC_FAILED = 101;
    /**
     * A collective failed at another member, so the communicator's collectives are revoked (MPICH's
     * MPIX_ERR_REVOKED): raised by every later collective on it too.
     */
    public static final int ERR_REVOKED = 103;

    private final int errorClass;

    public MPIException(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    public MPIException(int errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    /** Kept for MPJ Express source compatibility: an error of class {@link #ERR_OTHER}. */
    public MPIException(String message) {
        this(ERR_OTHER, message);
    }

    public MPIException(Throwable cause) {
        this(ERR_OTHER, String.valueOf(cause.getMessage()), cause);
    }

    /** The MPI error class of this error. */
    public int getErrorClass() {
        return errorClass;
    }

    @Override
    public String getMessage() {
        return super.getMessage() + " [" + className(errorClass) + "]";
    }

    static String className(int errorClass) {
        switch (errorClass) {
            case ERR_BUFFER: return "MPI_ERR_BUFFER";
            case ERR_COUNT: return "MPI_ERR_COUNT";
            case ERR_TYPE: return "MPI_ERR_TYPE";
            case ERR_TAG: return "MPI_ERR_TAG";
            case ERR_COMM: return "MPI_ERR_COMM";
            case ERR_RANK: return "MPI_ERR_RANK";
            case ERR_ROOT: return "MPI_ERR_ROOT";
            case ERR_GROUP: return "MPI_ERR_GROUP";
            case ERR_OP: return "MPI_ERR_OP";
            case ERR_TOPOLOGY: return "MPI_ERR_TOPOLOGY";
            case ERR_DIMS: return "MPI_ERR_DIMS";
            case ERR_ARG: return "MPI_ERR_ARG";
            case ERR_TRUNCATE: return "MPI_ERR_TRUNCATE";
            case ERR_INTERN: return "MPI_ERR_INTERN";
            case ERR_IN_STATUS: return "MPI_ERR_IN_STATUS";
            case ERR_PENDING: return "MPI_ERR_PENDING";
            case ERR_REQUEST: return "MPI_ERR_REQUEST";
            case ERR_PROC_FAILED: return "MPIX_ERR_PROC_FAILED";
            case ERR_REVOKED: return "MPIX_ERR_REVOKED";
            case ERR_UNKNOWN: return "MPI_ERR_UNKNOWN";
            default: return "MPI_ERR_OTHER";
        }
    }
}
