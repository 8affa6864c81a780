package dev.mpj.runtime.engine;

import mpi.MPI;
import mpi.MPIException;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who may be inside the {@link ProgressEngine} at once, by the MPI thread level. Under {@code THREAD_MULTIPLE}
 * any thread may enter: one lock serialises the engine's state and the transports behind it, and a waiting
 * thread lets go of it while it idles, so the others get in (MPICH's global critical section). Below it one
 * thread at a time may be in MPI: a second one is refused with {@code ERR_OTHER} naming the level, before it can
 * touch a queue; a wait keeps the engine for its whole length, so the refusal does not depend on luck.
 */
public sealed interface EngineLock permits EngineLock.Shared, EngineLock.OneThread {
    /** The lock for a process initialised at thread level {@code level} (one of {@code MPI.THREAD_*}). */
    static EngineLock forThreadLevel(int level) {
        return level >= MPI.THREAD_MULTIPLE ? new Shared() : new OneThread(switch (level) {
            case MPI.THREAD_SERIALIZED -> "MPI.THREAD_SERIALIZED";
            case MPI.THREAD_FUNNELED -> "MPI.THREAD_FUNNELED";
            default -> "MPI.THREAD_SINGLE";
        });
    }

    void lock();

    void unlock();

    /** Whether a waiting thread lets go of the lock while it idles (and so needs its own idle strategy). */
    boolean sharedWhileIdle();

    /** {@code THREAD_MULTIPLE}: a reentrant lock any thread may wait for. */
    final class Shared extends ReentrantLock implements EngineLock {
        @Override
        public boolean sharedWhileIdle() {
            return true;
        }
    }

    /**
     * Below {@code THREAD_MULTIPLE}: the owning thread, taken by compare-and-set (reentrant for the owner) and
     * released by an ordered store; a second thread is refused rather than queued.
     */
    final class OneThread extends AtomicReference<Thread> implements EngineLock {
        private final String levelName;
        /** Nested entries of the owner; only the owner touches it. */
        private int depth;

        OneThread(String levelName) {
            this.levelName = levelName;
        }

        @Override
        public void lock() {
            Thread me = Thread.currentThread();
            if (getAcquire() == me) {
                depth++;
            } else if (compareAndSet(null, me)) {
                depth = 1;
            } else {
                Thread inside = getAcquire();
                throw new MPIException(MPI.ERR_OTHER, "thread \"" + me.getName() + "\" called MPI while thread \""
                        + (inside == null ? "?" : inside.getName()) + "\" was inside it; MPI was initialised with "
                        + levelName + ", which allows one thread in MPI at a time (ask MPI.Init_thread for "
                        + "MPI.THREAD_MULTIPLE)");
            }
        }

        @Override
        public void unlock() {
            if (--depth == 0) {
                setRelease(null);
            }
        }

        @Override
        public boolean sharedWhileIdle() {
            return false;
        }
    }
}
