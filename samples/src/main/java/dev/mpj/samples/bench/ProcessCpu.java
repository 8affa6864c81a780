package dev.mpj.samples.bench;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;

/**
 * The CPU time this process has run so far, from {@code /proc/self/task/<tid>/schedstat} (nanoseconds on the CPU,
 * the first field) summed over its threads: finer than the clock ticks of {@code /proc/self/stat}, and it counts
 * the JIT's and the collector's threads, which a thread's own CPU time leaves out. Threads that have ended are not
 * counted. Read through {@code java.io} alone, which the JVM has loaded at start, so that a reading before
 * {@code MPI.Init} loads nothing that {@code MPI.Init} would otherwise load itself.
 */
final class ProcessCpu {
    private static final File TASKS = new File("/proc/self/task");
    private static final File THIS_THREAD = new File("/proc/thread-self/schedstat");

    private ProcessCpu() {
    }

    /** Milliseconds, or -1 where {@code /proc} does not give them. */
    static double millis() {
        String[] tasks = TASKS.list();
        if (tasks == null) {
            return -1;
        }
        long nanos = 0;
        byte[] buffer = new byte[64];
        for (String task : tasks) {
            try (FileInputStream in = new FileInputStream(new File(new File(TASKS, task), "schedstat"))) {
                nanos += leadingNumber(buffer, in.read(buffer));
            } catch (IOException e) {
                // a thread that ended while listed: its time is gone either way
            }
        }
        return nanos / 1e6;
    }

    /**
     * Milliseconds the calling thread has run, or -1 where {@code /proc} does not give them: for the thread that
     * calls {@code MPI.Init}, the work on its critical path, apart from what other threads do alongside.
     */
    static double threadMillis() {
        byte[] buffer = new byte[64];
        try (FileInputStream in = new FileInputStream(THIS_THREAD)) {
            return leadingNumber(buffer, in.read(buffer)) / 1e6;
        } catch (IOException e) {
            return -1;
        }
    }

    private static long leadingNumber(byte[] b, int n) {
        long v = 0;
        for (int i = 0; i < n && b[i] >= '0' && b[i] <= '9'; i++) {
            v = v * 10 + (b[i] - '0');
        }
        return v;
    }
}
