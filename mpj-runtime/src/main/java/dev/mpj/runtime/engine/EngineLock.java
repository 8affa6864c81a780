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
 * touch a queue; a wait keeps the engine for its whole length, so the refusal does not depend on luck. Under
 * {@code THREAD_SINGLE} and {@code THREAD_FUNNELED} MPI lets only the thread that initialised it call, so that is
 * the whole check ({@link MainThread}): a comparison, where taking and releasing an owner costs an atomic
 * instruction on every entry, three times per message on the blocking receive path.
 */
public sealed interface EngineLock permits EngineLock.Shared, EngineLock.OneThread, EngineLock.MainThread {
    /**
     * The lock for a process initialised at thread level {@code level} (one of {@code MPI.THREAD_*}) by the
     * thread {@code main}.
     */
    static EngineLock forThreadLevel(int level, Thread main) {
        return switch (level) {
            case MPI.THREAD_SINGLE -> new MainThread(main, "MPI.THREAD_SINGLE");
            case MPI.THREAD_FUNNELED -> new MainThread(main, "MPI.THREAD_FUNNELED");
            case MPI.THREAD_SERIALIZED -> new OneThread("MPI.THREAD_SERIALIZED");
            default -> new Shared();
        };
    }

    /** Before {@code MPI.Init} has granted a level: one thread at a time, whichever it is. */
    static EngineLock beforeInit() {
        return new OneThread("MPI.THREAD_SINGLE");
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

    /**
     * {@code THREAD_SINGLE} and {@code THREAD_FUNNELED}: only the thread that initialised MPI may call it. Any other
     * is refused, inside MPI or not, so no other thread ever reaches the engine's state; the owner enters with a
     * comparison and no write.
     */
    final class MainThread implements EngineLock {
        private final Thread main;
        private final String levelName;

        MainThread(Thread main, String levelName) {
            this.main = main;
            this.levelName = levelName;
        }

        @Override
        public void lock() {
            Thread me = Thread.currentThread();
            if (me != main) {
                throw new MPIException(MPI.ERR_OTHER, "thread \"" + me.getName() + "\" called MPI, which thread \""
                        + main.getName() + "\" initialised with " + levelName + ": only that thread may call MPI "
                        + "(ask MPI.Init_thread for MPI.THREAD_SERIALIZED or MPI.THREAD_MULTIPLE)");
            }
        }

        @Override
        public void unlock() {
        }

        @Override
        public boolean sharedWhileIdle() {
            return false;
        }
    }
}
