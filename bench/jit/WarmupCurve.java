import mpi.Intracomm;
import mpi.MPI;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The warm-up curve of the 8-byte allreduce as the OSU-style benchmark calls it (each call followed by a barrier):
 * per block of calls, rank 0's wall and CPU time per call, and the CPU its JVM's compiler threads have used so far
 * (from /proc), so the time a call takes can be read against the compiles the JVM is still doing.
 * Arguments: CALLS (default 40000), BLOCK (default 1000).
 */
public final class WarmupCurve {
    private WarmupCurve() {
    }

    public static void main(String[] args) throws IOException {
        MPI.Init(args);
        Intracomm comm = MPI.COMM_WORLD;
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 40_000;
        int block = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        float[] send = new float[2];
        float[] recv = new float[2];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        StringBuilder out = new StringBuilder("calls\tus_per_call\tcpu_us_per_call\tc1_cpu_ms\tc2_cpu_ms\n");
        comm.Barrier();
        long t0 = System.nanoTime();
        long cpu0 = threads.getCurrentThreadCpuTime();
        for (int i = 1; i <= calls; i++) {
            comm.Allreduce(send, 0, recv, 0, 2, MPI.FLOAT, MPI.SUM);
            comm.Barrier();
            if (i % block == 0) {
                long t = System.nanoTime();
                long cpu = threads.getCurrentThreadCpuTime();
                long[] jit = compilerCpuMillis();
                out.append(String.format("%d\t%.2f\t%.2f\t%d\t%d%n", i, (t - t0) / 1e3 / block,
                        (cpu - cpu0) / 1e3 / block, jit[0], jit[1]));
                t0 = t;
                cpu0 = cpu;
            }
        }
        if (comm.Rank() == 0) {
            System.out.print(out);
        }
        MPI.Finalize();
    }

    /** CPU milliseconds of this JVM's C1 and C2 compiler threads, from their /proc stat (user + system ticks). */
    private static long[] compilerCpuMillis() throws IOException {
        long[] ticks = new long[2];
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String name = Files.readString(task.resolve("comm")).trim();
                if (!name.contains("CompilerThre")) {
                    continue;
                }
                String stat = Files.readString(task.resolve("stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                ticks[name.startsWith("C1") ? 0 : 1] += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            }
        }
        long msPerTick = 1000 / 100; // USER_HZ is 100 on Linux
        return new long[] {ticks[0] * msPerTick, ticks[1] * msPerTick};
    }
}
