package dev.mpj.samples;

import mpi.MPI;

/**
 * π by the midpoint rule on 4/(1+x²) over [0,1] with {@code n} intervals (default 10^7), each rank
 * summing every size-th interval; {@code Reduce} adds the partial sums at rank 0.
 * {@code ./mpjrun -np 4 pi [n]}
 */
public final class Pi {
    private Pi() {
    }

    public static void main(String[] args) {
        String[] rest = MPI.Init(args);
        if (JobExit.helpAsked(rest)) {
            JobExit.usage("usage: pi [INTERVALS]   (pi by the midpoint rule, reduced to rank 0; default 10000000)");
        }
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        long n = 10_000_000L;
        try {
            n = rest.length > 0 ? Long.parseLong(rest[0]) : n;
            if (n < 1) {
                throw new NumberFormatException("at least one interval");
            }
        } catch (NumberFormatException e) {
            JobExit.refuse("pi", "the number of intervals must be a positive integer (" + e.getMessage() + ")");
        }
        double t0 = MPI.Wtime();
        double h = 1.0 / n;
        double sum = 0.0;
        for (long i = rank; i < n; i += size) {
            double x = h * (i + 0.5);
            sum += 4.0 / (1.0 + x * x);
        }
        double[] partial = {sum * h};
        double[] pi = new double[1];
        MPI.COMM_WORLD.Reduce(partial, 0, pi, 0, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (rank == 0) {
            Lines.printf("pi is approximately %.16f, error %.3e, %d intervals on %d ranks, %.3f s%n",
                    pi[0], Math.abs(pi[0] - Math.PI), n, size, MPI.Wtime() - t0);
        }
        MPI.Finalize();
    }
}
