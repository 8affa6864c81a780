package dev.mpj.api;

/**
 * An operation of a whole collective rather than of one message: it has no envelope, so its source and tag are
 * the wildcards, and it cannot be cancelled (MPI makes cancelling a collective erroneous), so it is left to complete.
 */
public abstract class CollectiveOperation implements Operation {
    @Override
    public int source() {
        return MpiBackend.ANY_SOURCE;
    }

    @Override
    public int tag() {
        return MpiBackend.ANY_TAG;
    }

    @Override
    public void cancel() {
    }

    @Override
    public boolean isCancelled() {
        return false;
    }
}
