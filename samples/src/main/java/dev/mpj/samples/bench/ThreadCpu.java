package dev.mpj.samples.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The CPU time of this JVM's threads by kind, from Linux's per-thread scheduler statistics
 * ({@code /proc/self/task/TID/schedstat}: nanoseconds on a CPU), so a benchmark can tell where a call's time went
 * on a machine whose cores the ranks share: the thread that calls MPI, the JIT compilers, the garbage collector,
 * the runtime's own threads and the rest. The calling thread's own time comes from its CPU clock instead, read as
 * a snapshot starts and as it ends, so a snapshot's own work (some 10 ms of cold code reading a file per thread)
 * falls outside what it measures; its schedstat would also lag by up to a scheduler tick. The other kinds are
 * zeros where {@code /proc} has no such files.
 */
final class ThreadCpu {
    /** What a thread does, from its name (Linux keeps the first 15 characters). */
    enum Kind {
        /** The thread that made this object: the one calling MPI. */
        MPI,
        /** HotSpot's C1 and C2 compiler threads. */
        JIT,
        /** G1's and the other collectors' threads. */
        GC,
        /** The runtime's own threads ({@code mpj-*}: the TCP standby, the launcher watchdog). */
        RUNTIME,
        /** Everything else (the VM thread, signal, reference and cleaner threads). */
        OTHER;

        static Kind of(String name) {
            if (name.startsWith("C1 ") || name.startsWith("C2 ")) {
                return JIT;
            }
            if (name.startsWith("G1 ") || name.startsWith("GC ")) {
                return GC;
            }
            return name.startsWith("mpj-") ? RUNTIME : OTHER;
        }

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final Path TASKS = Path.of("/proc/self/task");

    /**
     * CPU nanoseconds by {@link Kind#ordinal()}; the {@link Kind#MPI} entry as the snapshot began, and
     * {@code callerAtEnd} as it ended.
     */
    record Sample(long[] nanos, long callerAtEnd) {
    }

    private final String caller;
    /** Started here, outside any window measured: java.lang.management's start-up takes tens of ms. */
    private final ThreadMXBean clock = ManagementFactory.getThreadMXBean();

    /** Counts the calling thread as {@link Kind#MPI}. */
    ThreadCpu() {
        String tid = "";
        try {
            tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
        } catch (IOException | UnsupportedOperationException e) {
            // not Linux: every other kind is zeros anyway
        }
        caller = tid;
    }

    /** CPU time so far, by kind. Call it on the thread that made this object. */
    Sample snapshot() {
        long[] nanos = new long[Kind.values().length];
        nanos[Kind.MPI.ordinal()] = clock.getCurrentThreadCpuTime();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                if (task.getFileName().toString().equals(caller)) {
                    continue;
                }
                try {
                    Kind kind = Kind.of(read(task.resolve("comm")));
                    String stat = read(task.resolve("schedstat"));
                    int end = stat.indexOf(' ');
                    nanos[kind.ordinal()] += Long.parseLong(end < 0 ? stat : stat.substring(0, end));
                } catch (IOException | NumberFormatException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            // no /proc/self/task: zeros
        }
        return new Sample(nanos, clock.getCurrentThreadCpuTime());
    }

    /**
     * {@code (later - earlier) / calls}, per kind, in milliseconds; the calling thread's from the end of
     * {@code earlier} to the start of {@code later}.
     */
    static double[] millisPerCall(Sample earlier, Sample later, int calls) {
        double[] ms = new double[earlier.nanos.length];
        for (int i = 0; i < ms.length; i++) {
            long start = i == Kind.MPI.ordinal() ? earlier.callerAtEnd : earlier.nanos[i];
            ms[i] = (later.nanos[i] - start) / 1e6 / calls;
        }
        return ms;
    }

    /** "mpi 9.8, jit 8.6, gc 0.0, runtime 6.1, other 0.3 = 24.8" from milliseconds per kind. */
    static String describe(double[] ms) {
        StringBuilder line = new StringBuilder();
        double total = 0;
        for (Kind kind : Kind.values()) {
            line.append(line.length() == 0 ? "" : ", ")
                    .append(String.format(Locale.ROOT, "%s %.1f", kind.label(), ms[kind.ordinal()]));
            total += ms[kind.ordinal()];
        }
        return line.append(String.format(Locale.ROOT, " = %.1f", total)).toString();
    }

    private static String read(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
    }
}
