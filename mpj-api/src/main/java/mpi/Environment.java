package mpi;

import dev.mpj.api.CommSpec;
import dev.mpj.api.MpiBackend;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The life cycle of MPI in this process: the backend found at {@code MPI.Init}, the thread level,
 * the attached buffer, and the checks that every call is made between {@code Init} and
 * {@code Finalize}. The state is set by the thread that initialises or finalises MPI, when no other may call
 * it; it is volatile so threads started before {@code Init} see it. What other threads share afterwards (the
 * context ids, the buffered sends) locks itself.
 */
final class Environment {
    private enum State { NOT_INITIALIZED, RUNNING, FINALIZED }

    private static volatile State state = State.NOT_INITIALIZED;
    private static MpiBackend backend;
    private static volatile int threadLevel = MPI.THREAD_SINGLE;
    private static Thread mainThread;
    private static final BufferedSends bufferedSends = new BufferedSends();
    private static ContextIds contextIds = new ContextIds();
    /** The runtime {@link #load} tries first. */
    static final String DEFAULT_BACKEND = "dev.mpj.runtime.MpjRuntime";

    private Environment() {
    }

    /** The backend, for a call that communicates; raises ERR_OTHER outside Init..Finalize. */
    static MpiBackend backend() {
        if (state != State.RUNNING) {
            throw notRunning();
        }
        return backend;
    }

    /** The backend between Init and Finalize, else null: for work a call may skip after Finalize. */
    static MpiBackend backendIfRunning() {
        return state == State.RUNNING ? backend : null;
    }

    private static MPIException notRunning() {
        return state == State.NOT_INITIALIZED
                ? new MPIException(MPI.ERR_OTHER, "MPI.Init has not been called")
                : new MPIException(MPI.ERR_OTHER, "MPI.Finalize has already been called");
    }

    static boolean initialized() {
        return state != State.NOT_INITIALIZED;
    }

    static boolean finalized() {
        return state == State.FINALIZED;
    }

    /** Finds the runtime, starts it, and binds the predefined communicators; returns the thread level provided. */
    static int init(String[] args, int requiredThreadLevel) {
        if (requiredThreadLevel < MPI.THREAD_SINGLE || requiredThreadLevel > MPI.THREAD_MULTIPLE) {
            throw new MPIException(MPI.ERR_ARG, "Init_thread: required thread level must be one of MPI.THREAD_SINGLE ("
                    + MPI.THREAD_SINGLE + ") .. MPI.THREAD_MULTIPLE (" + MPI.THREAD_MULTIPLE + "), was " + requiredThreadLevel);
        }
        if (state == State.RUNNING) {
            throw new MPIException(MPI.ERR_OTHER, "MPI.Init has already been called");
        }
        if (state == State.FINALIZED) {
            throw new MPIException(MPI.ERR_OTHER, "MPI.Init cannot be called after MPI.Finalize");
        }
        MpiBackend found = load(Thread.currentThread().getContextClassLoader());
        int provided = found.initThread(args == null ? new String[0] : args, requiredThreadLevel);
        int rank = found.rank();
        int size = found.size();
        int[] world = new int[size];
        for (int i = 0; i < size; i++) {
            world[i] = i;
        }
        contextIds = new ContextIds();
        MPI.COMM_WORLD.bind(predefined(ContextIds.WORLD_PAIR, world, rank), size);
        MPI.COMM_SELF.bind(predefined(ContextIds.SELF_PAIR, new int[] {rank}, 0), size);
        backend = found;
        threadLevel = provided;
        mainThread = Thread.currentThread();
        state = State.RUNNING;
        return threadLevel;
    }

    private static CommSpec predefined(int pair, int[] worldRanks, int rank) {
        return new CommSpec(ContextIds.pointToPoint(pair), ContextIds.collective(pair), worldRanks, rank);
    }

    /** The context ids this process may still give to new communicators. */
    static ContextIds contextIds() {
        return contextIds;
    }

    /**
     * The mpj runtime, named in {@code mpj.backend} (by default {@value #DEFAULT_BACKEND}); when no such class is
     * on the class path, the first {@link MpiBackend} registered with {@link ServiceLoader} that {@code loader}
     * sees. The name comes first because a service lookup opens every jar of the class path, some 50 ms of a cold
     * JVM's {@code MPI.Init}, where loading one class from the class-data archive takes well under one.
     */
    static MpiBackend load(ClassLoader loader) {
        String name = System.getProperty("mpj.backend", DEFAULT_BACKEND);
        try {
            Class<?> named = Class.forName(name, true, loader);
            if (!MpiBackend.class.isAssignableFrom(named)) {
                throw new MPIException(MPI.ERR_OTHER, "MPI.Init: mpj.backend " + name + " is not a "
                        + MpiBackend.class.getName());
            }
            return (MpiBackend) named.getConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            if (!name.equals(DEFAULT_BACKEND)) {
                throw new MPIException(MPI.ERR_OTHER, "MPI.Init: mpj.backend " + name + " is not on the class path",
                        e);
            }
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new MPIException(MPI.ERR_OTHER, "MPI.Init: the mpj runtime " + name + " cannot be loaded: " + e,
                    e);
        }
        try {
            Iterator<MpiBackend> found = ServiceLoader.load(MpiBackend.class, loader).iterator();
            if (found.hasNext()) {
                return found.next();
            }
        } catch (ServiceConfigurationError e) {
            throw new MPIException(MPI.ERR_OTHER, "MPI.Init: the mpj runtime on the class path cannot be loaded: "
                    + e.getMessage(), e);
        }
        throw new MPIException(MPI.ERR_OTHER, "MPI.Init: no mpj runtime is on the class path (no "
                + MpiBackend.class.getName() + " service found); add mpj-runtime and a transport to the class path");
    }

    /** Waits for buffered sends, shuts the runtime down; MPI cannot be used or initialised again. */
    static void finish() {
        MpiBackend running = backend();
        try {
            bufferedSends.detach(running);
            running.finish();
        } finally {
            state = State.FINALIZED;
            backend = null;
            bufferedSends.clear();
        }
    }

    static int threadLevel() {
        return threadLevel;
    }

    static boolean isMainThread() {
        return Thread.currentThread() == mainThread;
    }

    static void attach(ByteBuffer buffer) {
        backend();
        bufferedSends.attach(buffer);
    }

    static ByteBuffer detach() {
        return bufferedSends.detach(backend());
    }

    static BufferedSends bufferedSends() {
        return bufferedSends;
    }

    /** Returns to the state before {@code MPI.Init}, so unit tests can initialise again in one JVM. */
    static void resetForTests() {
        state = State.NOT_INITIALIZED;
        backend = null;
        threadLevel = MPI.THREAD_SINGLE;
        mainThread = null;
        bufferedSends.clear();
        contextIds = new ContextIds();
        MPI.COMM_WORLD.unbind();
        MPI.COMM_SELF.unbind();
    }
}
