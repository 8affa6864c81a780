package mpi;

/**
 * A persistent request ({@code Send_init}, {@code Recv_init}, …): the arguments are checked once, and
 * each {@link #Start()} begins one communication with them, reading the send buffer afresh. Once the
 * communication completes the request is inactive, not null, and may be started again.
 */
public class Prequest extends Request {
    Prequest(Comm comm, Starter starter) {
        super(comm, starter);
    }

    /** Begins one communication; raises {@code ERR_REQUEST} if the previous one has not completed. */
    public void Start() {
        Environment.backend();
        if (isActive()) {
            throw new MPIException(MPI.ERR_REQUEST, "Start: the persistent request is already active; "
                    + "complete it with Wait or Test first");
        }
        start();
    }

    /** Starts every request in order; raises {@code ERR_REQUEST}, starting none, if any is null or active. */
    public static void Startall(Prequest[] requests) {
        Environment.backend();
        if (requests == null) {
            throw new MPIException(MPI.ERR_REQUEST, "Startall: the request array is null");
        }
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == null || requests[i].isActive()) {
                throw new MPIException(MPI.ERR_REQUEST, "Startall: request " + i + " is "
                        + (requests[i] == null ? "null" : "already active"));
            }
        }
        for (Prequest request : requests) {
            request.start();
        }
    }

    /** A persistent request is never null: once complete it is inactive and can be started again. */
    @Override
    public boolean Is_null() {
        return false;
    }
}
