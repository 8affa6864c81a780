package dev.mpj.runtime.pmi;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.pmi.wire.PmiException;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * Starts the PMIx client of the mpj-pmix jar, found by class name: it binds libpmix through the Foreign
 * Function and Memory API, which needs Java 22, so the runtime (Java 17) cannot link to it. When PMIx cannot
 * run here, the failure names PMIx, what is missing and the process managers that work without it.
 */
final class PmixLoader {
    static final String CLIENT_CLASS = "dev.mpj.pmix.PmixClient";
    /** The first Java release whose FFM API the client uses (final in 22). */
    static final int MIN_JAVA = 22;

    private PmixLoader() {
    }

    /**
     * The PMIx client connected to the server of this environment.
     *
     * @throws PmiException when Java is older than 22, the mpj-pmix jar or libpmix is missing, or the server
     *                      refuses
     */
    static PmiClient start(Map<String, String> env) {
        int java = Runtime.version().feature();
        if (java < MIN_JAVA) {
            throw unavailable("Java " + MIN_JAVA + " or later (this JVM is Java " + java + ")");
        }
        Class<?> client;
        try {
            client = Class.forName(CLIENT_CLASS);
        } catch (ClassNotFoundException | LinkageError e) {
            throw unavailable("the mpj-pmix jar on the class path (it holds " + CLIENT_CLASS + ")");
        }
        try {
            String missing = (String) client.getMethod("missing").invoke(null);
            if (missing != null) {
                throw unavailable(missing);
            }
            Method fromEnvironment = client.getMethod("fromEnvironment", Map.class);
            return (PmiClient) fromEnvironment.invoke(null, env);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof PmiException pe) {
                throw pe;
            }
            throw new PmiException("the PMIx client failed to start: " + cause, cause);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new PmiException(CLIENT_CLASS + " is not the PMIx client this runtime expects: " + e, e);
        }
    }

    /** Names PMIx, what is missing, and what to do instead. */
    static PmiException unavailable(String missing) {
        return new PmiException("this process was started by a PMIx process manager (Open MPI's mpirun, PRRTE,"
                + " srun --mpi=pmix) or asked for " + Setting.PMI.property() + "=pmix, but PMIx support needs "
                + missing + ". Run the ranks on Java " + MIN_JAVA + "+ with mpj-pmix and libpmix.so.2, or start"
                + " the job with mpjrun, MPICH's mpiexec (Hydra) or srun --mpi=pmi2 instead");
    }
}
