package mpi;

import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The buffer of {@code MPI.Buffer_attach} and the buffered sends charged to it. A buffered send
 * carries its own copy of the data to the runtime as a standard send; the attached buffer only
 * bounds how much may be outstanding at once (message bytes plus {@link MPI#BSEND_OVERHEAD} each),
 * as MPI requires, so a program sized for MPI's rules behaves the same here. Its methods lock it, as
 * threads may send buffered at once under {@code THREAD_MULTIPLE}.
 */
final class BufferedSends {
    private final List<Pending> pending = new ArrayList<>();
    private ByteBuffer attached;
    private long charged;

    private record Pending(Operation send, int charge) {
    }

    synchronized void attach(ByteBuffer buffer) {
        if (buffer == null) {
            throw new MPIException(MPI.ERR_BUFFER, "Buffer_attach: buffer is null");
        }
        if (attached != null) {
            throw new MPIException(MPI.ERR_BUFFER, "Buffer_attach: a buffer of " + attached.capacity()
                    + " bytes is already attached; detach it first");
        }
        attached = buffer;
    }

    /** Waits until every buffered send has completed, then hands back the attached buffer (null if none). */
    synchronized ByteBuffer detach(MpiBackend backend) {
        if (!pending.isEmpty()) {
            backend.await(this::allComplete);
        }
        retireCompleted();
        ByteBuffer buffer = attached;
        attached = null;
        return buffer;
    }

    /** Starts a buffered send of {@code copy}, a private copy of the user's data. */
    synchronized void send(MpiBackend backend, String call, ByteBuffer copy, int destWorldRank, int tag, int context) {
        retireCompleted();
        if (attached == null) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": no buffer is attached (call MPI.Buffer_attach first)");
        }
        int charge = copy.remaining() + MPI.BSEND_OVERHEAD;
        if (charged + charge > attached.capacity()) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": the attached buffer is too small: this message needs "
                    + charge + " bytes (" + copy.remaining() + " + MPI.BSEND_OVERHEAD " + MPI.BSEND_OVERHEAD + "), "
                    + pending.size() + " outstanding buffered sends hold " + charged + " of its "
                    + attached.capacity() + " bytes");
        }
        Operation send = backend.send(copy, destWorldRank, tag, context, SendMode.STANDARD);
        pending.add(new Pending(send, charge));
        charged += charge;
    }

    /** Bytes charged to the attached buffer by buffered sends not yet known to be complete. */
    synchronized long charged() {
        return charged;
    }

    private boolean allComplete() {
        for (Pending p : pending) {
            if (!p.send.isComplete()) {
                return false;
            }
        }
        return true;
    }

    /** Frees the room of completed sends; raises the error of a failed one, since no request reports it. */
    private void retireCompleted() {
        RuntimeException failure = null;
        for (int i = pending.size() - 1; i >= 0; i--) {
            Pending p = pending.get(i);
            if (p.send.isComplete()) {
                pending.remove(i);
                charged -= p.charge;
                if (p.send.error() != null) {
                    failure = p.send.error();
                }
            }
        }
        if (failure != null) {
            throw Request.asMpiException(failure);
        }
    }

    /** Forgets every pending send and the attached buffer (used once the runtime is gone). */
    synchronized void clear() {
        pending.clear();
        attached = null;
        charged = 0;
    }
}
