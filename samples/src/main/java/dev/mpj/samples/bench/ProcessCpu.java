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
            try {
                nanos += schedstatNanos(new File(new File(TASKS, task), "schedstat"), buffer);
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
        try {
            return schedstatNanos(THIS_THREAD, new byte[64]) / 1e6;
        } catch (IOException e) {
            return -1;
        }
    }

    /** A thread's nanoseconds on the CPU: the first field of its {@code schedstat}, read into {@code buffer}. */
    private static long schedstatNanos(File schedstat, byte[] buffer) throws IOException {
        try (FileInputStream in = new FileInputStream(schedstat)) {
            return leadingNumber(buffer, in.read(buffer));
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
