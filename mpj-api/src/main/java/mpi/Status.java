package mpi;

/**
 * What a completed receive (or probe) learned of its message: sender rank in the communicator,
 * tag, and size. {@link #index} is the position in the request array for {@code Waitany},
 * {@code Waitsome} and friends, else {@link MPI#UNDEFINED}.
 */
public class Status {
    /** Rank of the sender in the communicator ({@link MPI#PROC_NULL} for a receive from it). */
    public int source;
    public int tag;
    /** Index of the completed request in the array given to a {@code Wait*}/{@code Test*} call. */
    public int index = MPI.UNDEFINED;

    /** Size of the message in bytes on the wire. */
    final int byteCount;
    /** Objects in an {@link MPI#OBJECT} message once deserialised; -1 if unknown. */
    int objectCount = -1;
    boolean cancelled;

    Status(int source, int tag, int byteCount) {
        this.source = source;
        this.tag = tag;
        this.byteCount = byteCount;
    }

    /** The status of a null or inactive request: any source, any tag, nothing received. */
    static Status empty() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0);
    }

    /** The status of a communication with {@link MPI#PROC_NULL}. */
    static Status procNull() {
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0);
    }

    /**
     * Items of {@code datatype} in the message, or {@link MPI#UNDEFINED} if its size is not a whole
     * number of items. For {@link MPI#OBJECT} the number of objects received (undefined after a
     * probe, before the objects are deserialised).
     */
    public int Get_count(Datatype datatype) {
        return checked(datatype, "Get_count").countIn(this);
    }

    /** Primitive elements of {@code datatype}'s element type in the message, or {@link MPI#UNDEFINED}. */
    public int Get_elements(Datatype datatype) {
        return checked(datatype, "Get_elements").elementsIn(this);
    }

    /** Whether the request this status completes was cancelled. */
    public boolean Test_cancelled() {
        return cancelled;
    }

    private static Datatype checked(Datatype datatype, String call) {
        if (datatype == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype is null");
        }
        return datatype;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", bytes=" + byteCount + ", index=" + index
                + (cancelled ? ", cancelled" : "") + "]";
    }
}
