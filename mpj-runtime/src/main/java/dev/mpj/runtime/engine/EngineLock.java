package dev.mpj.runtime.engine;

import mpi.MPI;
import mpi.MPIException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who may be inside the {@link ProgressEngine} at once, by the MPI thread level. Under {@code THREAD_MULTIPLE}
 * any thread may enter: one lock serialises the engine's state and the transports behind it, and a waiting
 * thread lets go of it while it idles, so the others get in (MPICH's global critical section). Below it one
 * thread at a time may be in MPI: a second one is refused with {@code ERR_OTHER} naming the level, before it can
 * touch a queue; a wait keeps the engine for its whole length, so the refusal does not depend on luck.
 */
public abstract sealed class EngineLock permits EngineLock.Shared, EngineLock.OneThread {
    private static final String[] LEVEL_NAMES = {
            "MPI.THREAD_SINGLE", "MPI.THREAD_FUNNELED", "MPI.THREAD_SERIALIZED", "MPI.THREAD_MULTIPLE"};

    /** The lock for a process initialised at thread level {@code level} (one of {@code MPI.THREAD_*}). */
    public static EngineLock forThreadLevel(int level) {
        return level >= MPI.THREAD_MULTIPLE ? new Shared() : new OneThread(LEVEL_NAMES[Math.max(level, 0)]);
    }

    abstract void lock();

    abstract void unlock();

    /** Whether a waiting thread lets go of the lock while it idles (and so needs its own idle strategy). */
    abstract boolean sharedWhileIdle();

    /** {@code THREAD_MULTIPLE}: a reentrant lock any thread may wait for. */
    static final class Shared extends EngineLock {
        private final ReentrantLock lock = new ReentrantLock();

        @Override
        void lock() {
            lock.lock();
        }

        @Override
        void unlock() {
            lock.unlock();
        }

        @Override
        boolean sharedWhileIdle() {
            return true;
        }
    }

    /**
     * Below {@code THREAD_MULTIPLE}: an owner taken by compare-and-set (reentrant for the owner), released by a
     * plain ordered store; a second thread is refused rather than queued.
     */
    static final class OneThread extends EngineLock {
        private static final VarHandle OWNER;

        static {
            try {
                OWNER = MethodHandles.lookup().findVarHandle(OneThread.class, "owner", Thread.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final String levelName;
        @SuppressWarnings("unused") // through OWNER
        private volatile Thread owner;
        /** Nested entries of the owner; only the owner touches it. */
        private int depth;

        OneThread(String levelName) {
            this.levelName = levelName;
        }

        @Override
        void lock() {
            Thread me = Thread.currentThread();
            if (OWNER.getAcquire(this) == me) {
                depth++;
            } else if (OWNER.compareAndSet(this, null, me)) {
                depth = 1;
            } else {
                Thread inside = (Thread) OWNER.getAcquire(this);
                throw new MPIException(MPI.ERR_OTHER, "thread \"" + me.getName() + "\" called MPI while thread \""
                        + (inside == null ? "?" : inside.getName()) + "\" was inside it; MPI was initialised with "
                        + levelName + ", which allows one thread in MPI at a time (ask MPI.Init_thread for "
                        + "MPI.THREAD_MULTIPLE)");
            }
        }

        @Override
        void unlock() {
            if (--depth == 0) {
                OWNER.setRelease(this, null);
            }
        }

        @Override
        boolean sharedWhileIdle() {
            return false;
        }
    }
}
