package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.PmiException;
import dev.mpj.runtime.pmi.wire.PmiLimits;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The client for a process started without a process manager: a job of one, rank 0. Keeps the semantics and
 * limits of a real server, so code that works here works under Hydra and Slurm: a put becomes visible only
 * after the next {@link #barrier()}, and keys and values obey the PMI-1 limits (value length
 * {@value PmiLimits#DEFAULT_MAX_VALUE_LENGTH}).
 */
public final class SingletonPmiClient implements PmiClient {
    private final String jobId = "singleton-" + ProcessHandle.current().pid() + "-"
            + String.format("%08x", ThreadLocalRandom.current().nextInt());
    private final Map<String, String> pending = new HashMap<>();
    private final Map<String, String> published = new HashMap<>();
    private final PmiCounters counters = new PmiCounters();
    private boolean closed;

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
        close();
    }

    /** There is no process manager to ask: the caller ends the process, which is the whole job. */
    @Override
    public void abort(int exitCode, String message) {
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
        return "SingletonPmiClient[" + jobId + " " + counters + "]";
    }
}
