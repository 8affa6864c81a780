package dev.mpj.runtime.coll;

import dev.mpj.api.WaitCondition;
import dev.mpj.runtime.engine.ProgressEngine;
import mpi.MPIException;

/**
 * A communicator's waits on counters in a room of the node segment, which the other members' stores satisfy: through
 * the engine's wait for others' stores (a few tests of the room, then its wait loop, which polls the transports, so a
 * lost peer fails it), ended too when the communicator's collectives are revoked. Used by one thread at a time, as a
 * communicator's blocking collectives are.
 *
 * <p>Every test of a wait calls {@link #reached} from the subclass's own code (the first test, before {@link
 * #awaitNotYetReached}, and its {@code getAsBoolean}), never from code here that both subclasses share: the JIT binds
 * a final class's call to its own method, whereas a shared call site speculates on the class its profile saw first,
 * and a pair's first wait in the fold room after many in the collective room (or the reverse) would trap there and
 * discard the compiled waits.
 */
abstract class RoomWait implements WaitCondition {
    private final ProgressEngine engine;
    private final int context;
    private MPIException revoked;

    RoomWait(ProgressEngine engine, int context) {
        this.engine = engine;
        this.context = context;
    }

    /**
     * Whether the wait in progress is over: the counters it waits for have reached their targets. Called only by
     * the subclass itself (see above).
     */
    abstract boolean reached();

    /**
     * Waits until {@link #reached}, which the caller has just found false; throws the revocation's error if the
     * collectives are revoked first.
     */
    final void awaitNotYetReached() {
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

    /** The rest of a subclass's {@link #getAsBoolean} once the counters have not reached their targets. */
    final boolean revokedMeanwhile() {
        revoked = engine.revocationError(context);
        return revoked != null;
    }
}
