package dev.mpj.samples.bench;

import dev.mpj.samples.bench.BenchOptions.Accepts;
import mpi.MPI;

import java.util.EnumSet;

/**
 * Ping-pong latency between ranks 0 and 1, as OSU's {@code osu_latency}: half the round-trip time of a message of
 * each size, 0 B to 4 MiB by default, from Java arrays, or with {@code --buffer alloc-mem} from {@code MPI.Alloc_mem}
 * memory. Other ranks only take part in the barriers.
 * {@code ./mpjrun -np 2 latency [-m [MIN:]MAX] [--buffer heap|alloc-mem] [-i ITERATIONS] [-x WARMUP]
 * [--csv FILE|-]}
 */
public final class Latency {
    private static final int TAG = 1;

    private Latency() {
    }

    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        BenchOptions o = BenchOptions.forJob(rest, "latency", 0, 4 << 20, 10_000, 1_000,
                EnumSet.of(Accepts.SIZES, Accepts.BUFFER));
        OsuReport report = new OsuReport("mpj Latency Test (OSU style)", "Latency (us)", "latency_us", System.out);
        if (rank == 0) {
            report.header();
        }
        Object send = o.buffer.allocate(o.maxSize);
        Object recv = o.buffer.allocate(o.maxSize);
        for (int size = o.minSize; size <= o.maxSize; size = BenchOptions.next(size)) {
            int iterations = o.iterationsFor(size);
            MPI.COMM_WORLD.Barrier();
            double start = 0;
            for (int i = 0; i < o.warmupFor(size) + iterations; i++) {
                if (i == o.warmupFor(size)) {
                    start = MPI.Wtime();
                }
                if (rank == 0) {
                    MPI.COMM_WORLD.Send(send, 0, size, MPI.BYTE, 1, TAG);
                    MPI.COMM_WORLD.Recv(recv, 0, size, MPI.BYTE, 1, TAG);
                } else if (rank == 1) {
                    MPI.COMM_WORLD.Recv(recv, 0, size, MPI.BYTE, 0, TAG);
                    MPI.COMM_WORLD.Send(send, 0, size, MPI.BYTE, 0, TAG);
                }
            }
            if (rank == 0) {
                report.row(size, (MPI.Wtime() - start) * 1e6 / (2.0 * iterations));
            }
        }
        o.buffer.reportPath(rank);
        if (rank == 0) {
            report.csv(o.csv);
        }
        o.buffer.free(send);
        o.buffer.free(recv);
        MPI.Finalize();
    }
}
