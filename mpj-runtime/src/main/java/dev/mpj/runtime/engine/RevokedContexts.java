package dev.mpj.runtime.engine;

import mpi.MPIException;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * The collective contexts this rank knows revoked, each with the error its operations fail with: which rank
 * revoked it and why. The first revocation of a context wins; a freed context is forgotten, so its reuse by a
 * new communicator starts clean. Owned by the MPI thread.
 */
final class RevokedContexts {
    private final Int2ObjectHashMap<String> messages = new Int2ObjectHashMap<>();

    /** Records the revocation; false when the context was revoked already. */
    boolean add(int context, int origin, int self, String reason) {
        if (messages.containsKey(context)) {
            return false;
        }
        messages.put(context, origin == self
                ? "the collectives of this communicator were revoked after an error here: " + reason
                : "a collective failed at world rank " + origin + ": " + reason);
        return true;
    }

    boolean contains(int context) {
        return messages.containsKey(context);
    }

    /** A new error for an operation on a revoked context (one per operation, so each has its own trace). */
    MPIException error(int context) {
        return new MPIException(MPIException.ERR_REVOKED, messages.get(context));
    }

    void forget(int context) {
        messages.remove(context);
    }
}
