package dev.mpj.runtime.coll;

import dev.mpj.api.WaitCondition;
import dev.mpj.runtime.engine.ProgressEngine;
import mpi.MPIException;

/**
 * A communicator's waits on counters in a room of the node segment, which the other members' stores satisfy: through
 * the engine's wait for others' stores (a few tests of the room, then its wait loop, which polls the transports, so a
 * lost peer fails it), ended too when the communicator's collectives are revoked. Used by one thread at a time, as a
 * communicator's blocking collectives are.
 */
abstract class RoomWait implements WaitCondition {
    private final ProgressEngine engine;
    private final int context;
    private MPIException revoked;

    RoomWait(ProgressEngine engine, int context) {
        this.engine = engine;
        this.context = context;
    }

    /** Whether the wait in progress is over: the counters it waits for have reached their targets. */
    abstract boolean reached();

    /** Waits until {@link #reached}; throws the revocation's error if the collectives are revoked first. */
    final void awaitReached() {
        revoked = null;
        engine.awaitSetByOthers(this);
        if (revoked != null) {
            throw revoked;
        }
    }

    /** Fails at once, as operations on the context do, once the communicator's collectives are revoked. */
    final void failIfRevoked() {
        MPIException e = engine.revocationError(context);
        if (e != null) {
            throw e;
        }
    }

    final int context() {
        return context;
    }

    @Override
    public final boolean getAsBoolean() {
        if (reached()) {
            return true;
        }
        revoked = engine.revocationError(context);
        return revoked != null;
    }
}
