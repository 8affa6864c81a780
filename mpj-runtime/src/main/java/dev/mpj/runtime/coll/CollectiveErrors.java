package dev.mpj.runtime.coll;

import mpi.MPIException;

/** Which errors raised in a collective revoke the communicator's collectives (decision 0023). */
public final class CollectiveErrors {
    private CollectiveErrors() {
    }

    /**
     * Whether {@code e}, raised by a member in a collective, must revoke the communicator's collectives: yes for
     * what the members find while they communicate (a count that does not match, a lost peer, a refused object,
     * any unexpected exception); no for a revocation itself, and no for the classes only a member's own arguments
     * raise before it communicates (a bad root, type, op, buffer, rank or tag), which, as in MPICH, return their
     * error and leave the communicator usable, so a program whose members all make the same mistake goes on.
     */
    public static boolean revokes(RuntimeException e) {
        if (!(e instanceof MPIException m)) {
            return true;
        }
        return switch (m.getErrorClass()) {
            case MPIException.ERR_REVOKED, MPIException.ERR_BUFFER, MPIException.ERR_TYPE, MPIException.ERR_TAG,
                 MPIException.ERR_COMM, MPIException.ERR_RANK, MPIException.ERR_ROOT, MPIException.ERR_GROUP,
                 MPIException.ERR_OP, MPIException.ERR_ARG -> false;
            default -> true;
        };
    }

    /** The reason a revocation for {@code e} gives the other members. */
    public static String reason(RuntimeException e) {
        return e instanceof MPIException ? e.getMessage() : e.toString();
    }
}
