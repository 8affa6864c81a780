package dev.mpj.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One started rank: its process, its output forwarders, and what PMI has said about it so far. A rank a node agent
 * started ({@link #remote}) has no process here: its pid and exit status come up the agents' tree.
 */
final class RankProcess {
    final int rank;
    /** Null for a rank started by a node agent. */
    final Process process;
    private volatile long remotePid = -1;
    private final CompletableFuture<Integer> remoteExit = new CompletableFuture<>();
    private final List<Thread> forwarders = new ArrayList<>(2);
    /** The uncaught-exception traces held back from its stderr. */
    final UncaughtTraces traces = new UncaughtTraces();
    /** Lines of wait reports passed on from its stderr. */
    final AtomicInteger reportLines = new AtomicInteger();
    /** Set from PMI events, read and written by the job's supervising thread only. */
    boolean connected;
    boolean finalized;

    RankProcess(int rank, Process process) {
        this.rank = rank;
        this.process = process;
    }

    /** A rank started by a node agent, whose pid and exit status are reported later. */
    static RankProcess remote(int rank) {
        return new RankProcess(rank, null);
    }

    boolean isRemote() {
        return process == null;
    }

    /** A remote rank's agent started it as {@code pid}. */
    void started(long pid) {
        remotePid = pid;
    }

    /** A remote rank exited with {@code status}. */
    void exited(int status) {
        remoteExit.complete(status);
    }

    boolean isAlive() {
        return process != null ? process.isAlive() : !remoteExit.isDone();
    }

    void addForwarder(Thread forwarder) {
        forwarders.add(forwarder);
    }

    long pid() {
        return process != null ? process.pid() : remotePid;
    }

    /** The exit status once the process has ended within {@code millis}, else null. */
    Integer exitStatusWithin(long millis) {
        try {
            if (process == null) {
                return remoteExit.get(millis, TimeUnit.MILLISECONDS);
            }
            if (process.waitFor(millis, TimeUnit.MILLISECONDS)) {
                return process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // not reported yet
        }
        return null;
    }

    /** Waits until everything the rank wrote has been passed on, or until {@code deadlineNanos}. */
    void awaitOutput(long deadlineNanos) throws InterruptedException {
        for (Thread t : forwarders) {
            long millis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            if (millis > 0) {
                t.join(millis);
            }
        }
    }

    /** How it ended, for a message: "exited with status 3", "was killed by signal 9", "is still running". */
    String ending() {
        Integer status = exitStatusWithin(0);
        if (status == null) {
            return "is still running";
        }
        return status > 128 && status < 128 + 65 ? "was killed by signal " + (status - 128)
                : "exited with status " + status;
    }

    @Override
    public String toString() {
        return "rank " + rank + " (pid " + pid() + ")";
    }
}
