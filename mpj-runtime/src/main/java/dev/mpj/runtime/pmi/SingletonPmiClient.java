package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.PmiException;
import dev.mpj.runtime.pmi.wire.PmiLimits;
import dev.mpj.runtime.pmi.wire.PmiVariables;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The client for a process started without a process manager: a job of one, rank 0. Keeps the semantics and
 * limits of a real server, so code that works here works under Hydra and Slurm: a put becomes visible only
 * after the next {@link #barrier()}, and keys and values obey the PMI-1 limits (value length
 * {@value PmiLimits#DEFAULT_MAX_VALUE_LENGTH}).
 *
 * <p>Started by the {@code mpjrun} script as a job of one ({@value PmiVariables#MPJRUN_SINGLETON}), it also does
 * what the launcher would have done for that job: {@code MPI.Abort} names the rank on stderr, and a rank that ends
 * after {@code MPI.Init} without {@code MPI.Finalize} says so and exits with status 1.
 */
public final class SingletonPmiClient implements PmiClient {
    /**
     * Made at the first {@link #jobId()}: a job of one maps no node segment, so it usually never asks, and the
     * process handle and the random generator are not started for nothing.
     */
    private String jobId;
    private final Map<String, String> pending = new HashMap<>();
    private final Map<String, String> published = new HashMap<>();
    private final PmiCounters counters = new PmiCounters();
    private boolean closed;
    private final boolean mpjrunJob;
    /** Set by {@code MPI.Finalize} or {@code MPI.Abort}: the rank ended its MPI part as it should. */
    private volatile boolean ended;

    public SingletonPmiClient() {
        this(false);
    }

    private SingletonPmiClient(boolean mpjrunJob) {
        this.mpjrunJob = mpjrunJob;
        if (mpjrunJob) {
            Runtime.getRuntime().addShutdownHook(new UnfinalizedExit(this));
        }
    }

    /** Eight hex digits, without {@code String.format}: its formatter and patterns would be loaded for this alone. */
    private static String randomHex() {
        String hex = Integer.toHexString(ThreadLocalRandom.current().nextInt());
        return "00000000".substring(hex.length()) + hex;
    }

    /** The singleton client of a process whose environment is {@code env}. */
    public static SingletonPmiClient of(Map<String, String> env) {
        return new SingletonPmiClient("1".equals(env.get(PmiVariables.MPJRUN_SINGLETON)));
    }

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return 1;
    }

    /** {@code singleton-<pid>-<8 random hex digits>}. */
    @Override
    public String jobId() {
        if (jobId == null) {
            jobId = "singleton-" + ProcessHandle.current().pid() + "-" + randomHex();
        }
        return jobId;
    }

    /** One node with one rank. */
    @Override
    public String processMapping() {
        return "(vector,(0,1,1))";
    }

    @Override
    public int maxValueLength() {
        return PmiLimits.DEFAULT_MAX_VALUE_LENGTH;
    }

    @Override
    public void put(String key, String value) {
        ensureOpen();
        PmiLimits.checkPut(key, value, PmiLimits.MAX_KEY_LENGTH, PmiLimits.DEFAULT_MAX_VALUE_LENGTH);
        pending.put(key, value);
        counters.countPut();
    }

    @Override
    public String get(String key) {
        ensureOpen();
        PmiLimits.checkKey(key, PmiLimits.MAX_KEY_LENGTH);
        counters.countGet();
        return published.get(key);
    }

    @Override
    public void barrier() {
        ensureOpen();
        published.putAll(pending);
        pending.clear();
        counters.countBarrier();
    }

    @Override
    public void finish() {
        ended = true;
        close();
    }

    /** There is no process manager to ask: the caller ends the process, which is the whole job. */
    @Override
    public void abort(int exitCode, String message) {
        ended = true;
        if (mpjrunJob) {
            System.err.println("mpjrun: rank 0 called MPI.Abort(" + exitCode + ")");
            System.err.flush();
        }
        close();
    }

    @Override
    public String dialect() {
        return "singleton";
    }

    @Override
    public PmiCounters counters() {
        return counters;
    }

    @Override
    public void close() {
        closed = true;
    }

    private void ensureOpen() {
        if (closed) {
            throw new PmiException("the singleton PMI client is closed");
        }
    }

    @Override
    public String toString() {
        return "SingletonPmiClient[" + jobId() + " " + counters + "]";
    }

    /**
     * At the JVM's exit, for a rank that has not ended its MPI part: the launcher's line, and status 1 when
     * {@code main} returned (the JVM would say 0). A rank that called {@code System.exit} keeps its status: the
     * thread that called it waits in {@code Runtime.exit} while the hooks run.
     */
    private static final class UnfinalizedExit extends Thread {
        private final SingletonPmiClient client;

        UnfinalizedExit(SingletonPmiClient client) {
            super("mpj-unfinalized-exit");
            this.client = client;
        }

        @Override
        public void run() {
            if (client.ended) {
                return;
            }
            System.out.flush();
            System.err.println("mpjrun: rank 0 exited before MPI.Finalize");
            System.err.flush();
            if (!exitCalled()) {
                Runtime.getRuntime().halt(1);
            }
        }

        private static boolean exitCalled() {
            for (StackTraceElement[] stack : Thread.getAllStackTraces().values()) {
                for (StackTraceElement frame : stack) {
                    if (frame.getClassName().equals("java.lang.Runtime") && frame.getMethodName().equals("exit")) {
                        return true;
                    }
                }
            }
            return false;
        }
    }
}
