package dev.mpj.samples.bench;

import dev.mpj.samples.JobExit;
import dev.mpj.samples.bench.BenchOptions.Accepts;
import mpi.Intracomm;
import mpi.MPI;

import java.util.EnumSet;
import java.util.List;

/**
 * The timing loop of the OSU-style collective latency benchmarks ({@code osu_allreduce}, {@code osu_alltoall}, …):
 * for each size, {@code warm-up + iterations} calls, each timed on its own and followed by a barrier so that no
 * call overlaps the next (the barrier benchmark times barriers back to back); each rank averages its own times,
 * and rank 0 prints the average over ranks, with {@code -f} also the minimum, the maximum and the iteration count.
 * Defaults as OSU's: 1000 iterations after 200 warm-up calls up to 8 KiB, a tenth of both above.
 */
final class CollectiveLatency {
    private static final int ITERATIONS = 1000;
    private static final int WARMUP = 200;
    private static final int DEFAULT_MAX = 1 << 20;

    /**
     * One collective of one size on every rank; its buffers are made once, for the largest size. Implemented by a
     * class whose {@code run} makes the call, not by a lambda: a lambda's call runs through two methods (its
     * class's {@code run} and the synthetic body), and the JIT compiles each on its own with the whole collective
     * inlined, beside the timed calls.
     */
    interface Call {
        void run(int size);
    }

    /** Makes the call of a benchmark for sizes up to {@code maxSize} bytes on {@code comm}. */
    @FunctionalInterface
    interface Setup {
        /** @throws IllegalArgumentException when the benchmark cannot run that size (the job is refused) */
        Call prepare(Intracomm comm, int maxSize);
    }

    private CollectiveLatency() {
    }

    /**
     * Runs the benchmark {@code name} (mpjrun's sample name, also the name in messages) for {@code op} (OSU's
     * name of the collective: "Allreduce", "Barrier", …).
     *
     * @param minSize the default and smallest size in bytes (the element size of the call), or 0 for a collective
     *                without data (barrier), which takes no {@code -m}
     */
    static void main(String name, String op, int minSize, Setup setup, String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        boolean sized = minSize > 0;
        BenchOptions o = BenchOptions.forJob(rest, name, minSize, sized ? DEFAULT_MAX : 0, ITERATIONS, WARMUP,
                sized ? EnumSet.of(Accepts.SIZES, Accepts.FULL) : EnumSet.of(Accepts.FULL));
        Intracomm comm = MPI.COMM_WORLD;
        if (sized && o.minSize < minSize) {
            JobExit.refuse(name, "sizes start at " + minSize + " bytes (-m " + minSize + ":MAX)");
        }
        Call call = null;
        try {
            call = setup.prepare(comm, o.maxSize);
        } catch (IllegalArgumentException e) {
            JobExit.refuse(name, e.getMessage());
        }
        OsuReport report = report(op, sized, o.full);
        if (comm.Rank() == 0) {
            report.header();
        }
        for (int size = o.minSize; size <= o.maxSize; size = BenchOptions.next(size)) {
            int iterations = o.iterationsFor(size);
            double[] us = {averageMicros(comm, call, size, o.warmupFor(size), iterations, sized)};
            double[] min = new double[1];
            double[] max = new double[1];
            double[] sum = new double[1];
            comm.Reduce(us, 0, min, 0, 1, MPI.DOUBLE, MPI.MIN, 0);
            comm.Reduce(us, 0, max, 0, 1, MPI.DOUBLE, MPI.MAX, 0);
            comm.Reduce(us, 0, sum, 0, 1, MPI.DOUBLE, MPI.SUM, 0);
            if (comm.Rank() == 0) {
                double avg = sum[0] / comm.Size();
                Number[] values = o.full ? new Number[] {avg, min[0], max[0], iterations} : new Number[] {avg};
                if (sized) {
                    report.row(size, values);
                } else {
                    report.unsizedRow(values);
                }
            }
            if (!sized) {
                break;
            }
        }
        if (comm.Rank() == 0) {
            report.csv(o.csv);
        }
        MPI.Finalize();
    }

    /**
     * Bytes of a buffer holding {@code blockSize} bytes from every rank of {@code comm}.
     *
     * @throws IllegalArgumentException when that is more than a Java array holds
     */
    static int fromEveryRank(Intracomm comm, int blockSize) {
        long bytes = (long) blockSize * comm.Size();
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(blockSize + " bytes from each of " + comm.Size()
                    + " ranks do not fit in one Java array: lower -m");
        }
        return (int) bytes;
    }

    private static double averageMicros(Intracomm comm, Call call, int size, int warmup, int iterations,
                                        boolean separate) {
        comm.Barrier();
        double total = 0;
        for (int i = 0; i < warmup + iterations; i++) {
            double start = MPI.Wtime();
            call.run(size);
            double elapsed = MPI.Wtime() - start;
            if (i >= warmup) {
                total += elapsed;
            }
            if (separate) {
                comm.Barrier();
            }
        }
        return total * 1e6 / iterations;
    }

    private static OsuReport report(String op, boolean sized, boolean full) {
        List<String> columns = full
                ? List.of("Avg Latency(us)", "Min Latency(us)", "Max Latency(us)", "Iterations")
                : List.of("Avg Latency(us)");
        List<String> csv = full ? List.of("avg_us", "min_us", "max_us", "iterations") : List.of("avg_us");
        return new OsuReport("OSU MPI-style " + op + " Latency Test", sized, columns, csv, System.out);
    }
}
