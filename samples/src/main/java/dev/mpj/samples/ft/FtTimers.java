package dev.mpj.samples.ft;

import dev.mpj.samples.Lines;

import mpi.Intracomm;
import mpi.MPI;

/**
 * NPB FT's optional timer breakdown (its {@code timer.flag}): seconds spent per phase on each rank,
 * printed by rank 0 as minimum, maximum and average over ranks. Disabled timers cost one branch.
 */
final class FtTimers {
    static final int SETUP = 0;
    static final int FFT = 1;
    static final int EVOLVE = 2;
    static final int CHECKSUM = 3;
    static final int TRANSPOSE_LOCAL = 4;
    static final int ALLTOALL = 5;
    static final int TRANSPOSE_FINISH = 6;
    private static final String[] NAMES = {"setup", "fft", "evolve", "checksum", "transpose local",
        "transpose global", "transpose finish"};

    private final boolean enabled;
    private final double[] seconds = new double[NAMES.length];
    private final long[] started = new long[NAMES.length];

    FtTimers(boolean enabled) {
        this.enabled = enabled;
    }

    void start(int timer) {
        if (enabled) {
            started[timer] = System.nanoTime();
        }
    }

    void stop(int timer) {
        if (enabled) {
            seconds[timer] += (System.nanoTime() - started[timer]) * 1e-9;
        }
    }

    void clear() {
        java.util.Arrays.fill(seconds, 0.0);
    }

    /** Collective over {@code comm}: rank 0 prints the table. */
    void print(Intracomm comm) {
        if (!enabled) {
            return;
        }
        int n = seconds.length;
        double[] min = new double[n], max = new double[n], sum = new double[n];
        comm.Reduce(seconds, 0, min, 0, n, MPI.DOUBLE, MPI.MIN, 0);
        comm.Reduce(seconds, 0, max, 0, n, MPI.DOUBLE, MPI.MAX, 0);
        comm.Reduce(seconds, 0, sum, 0, n, MPI.DOUBLE, MPI.SUM, 0);
        if (comm.Rank() == 0) {
            Lines.printf(" nprocs =%6d %27s %11s %11s%n", comm.Size(), "minimum", "maximum", "average");
            for (int i = 0; i < n; i++) {
                Lines.printf(" timer %2d(%16s) :  %10.4f  %10.4f  %10.4f%n", i + 1, NAMES[i], min[i],
                        max[i], sum[i] / comm.Size());
            }
        }
    }
}
