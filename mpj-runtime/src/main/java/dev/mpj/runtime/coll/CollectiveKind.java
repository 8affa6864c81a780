package dev.mpj.runtime.coll;

/**
 * The collectives, each with its own tag on the communicator's collective context. MPI makes every
 * member call collectives in the same order, and each algorithm posts its receives from a given peer
 * in the order that peer sends, so per-kind tags suffice: a message of one collective can never
 * match a receive of a different kind that a slower member still has pending.
 */
public enum CollectiveKind {
    BARRIER, BCAST, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV,
    REDUCE, ALLREDUCE, REDUCE_SCATTER, SCAN;

    /** The tag of this kind's messages; 1 for the barrier, as before the others existed (0 is {@code CommSpec.API_TAG}). */
    public int tag() {
        return ordinal() + 1;
    }
}
