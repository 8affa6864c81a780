package dev.mpj.samples.bench;

import dev.mpj.samples.bench.BenchOptions.Accepts;
import mpi.MPI;

import java.util.EnumSet;

/**
 * Streaming bandwidth from rank 0 to rank 1, as OSU's {@code osu_bw}: per iteration, a window of 64 non-blocking
 * sends of one size, matched by 64 non-blocking receives, then a short acknowledgement back; MB/s is 10^6 bytes
 * a second. 1 B to 4 MiB by default, from Java arrays, or with {@code --buffer alloc-mem} from
 * {@code MPI.Alloc_mem} memory. {@code ./mpjrun -np 2 bw [-m [MIN:]MAX] [--buffer heap|alloc-mem]
 * [-i ITERATIONS] [-x WARMUP] [--csv FILE|-]}
 */
public final class Bandwidth {
    private Bandwidth() {
    }

    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        BenchOptions o = BenchOptions.forJob(rest, "bw", 1, 4 << 20, 100, 10,
                EnumSet.of(Accepts.SIZES, Accepts.BUFFER));
        OsuReport report = new OsuReport("mpj Bandwidth Test (OSU style), window " + SendWindow.WINDOW,
                "Bandwidth (MB/s)", "bandwidth_mb_s", System.out);
        if (rank == 0) {
            report.header();
        }
        // one buffer for the whole window, as osu_bw's
        Object buffer = o.buffer.allocate(o.maxSize);
        SendWindow window = new SendWindow();
        for (int size = Math.max(1, o.minSize); size <= o.maxSize; size *= 2) {
            int iterations = o.iterationsFor(size);
            int warmup = o.warmupFor(size);
            MPI.COMM_WORLD.Barrier();
            if (rank < 2) {
                double seconds = window.stream(buffer, size, 1 - rank, rank == 0, warmup, iterations);
                if (rank == 0) {
                    report.row(size, (double) size * SendWindow.WINDOW * iterations / seconds / 1e6);
                }
            }
        }
        o.buffer.reportPath(rank);
        if (rank == 0) {
            report.csv(o.csv);
        }
        o.buffer.free(buffer);
        MPI.Finalize();
    }
}
