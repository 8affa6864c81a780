package dev.mpj.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** One started rank: its process, its output forwarders, and what PMI has said about it so far. */
final class RankProcess {
    final int rank;
    final Process process;
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

    void addForwarder(Thread forwarder) {
        forwarders.add(forwarder);
    }

    long pid() {
        return process.pid();
    }

    /** The exit status once the process has ended within {@code millis}, else null. */
    Integer exitStatusWithin(long millis) {
        try {
            if (process.waitFor(millis, TimeUnit.MILLISECONDS)) {
                return process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
        if (process.isAlive()) {
            return "is still running";
        }
        int status = process.exitValue();
        return status > 128 && status < 128 + 65 ? "was killed by signal " + (status - 128)
                : "exited with status " + status;
    }

    @Override
    public String toString() {
        return "rank " + rank + " (pid " + pid() + ")";
    }
}
