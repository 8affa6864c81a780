package dev.mpj.samples;

import mpi.MPI;

/**
 * π by the midpoint rule on 4/(1+x²) over [0,1] with {@code n} intervals (default 10^7), each rank
 * summing every size-th interval; rank 0 collects the partial sums with point-to-point messages.
 * {@code ./mpjrun -np 4 pi [n]}
 */
public final class Pi {
    private static final int TAG = 301;

    private Pi() {
    }

    public static void main(String[] args) {
        String[] rest = MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        long n = rest.length > 0 ? Long.parseLong(rest[0]) : 10_000_000L;
        double t0 = MPI.Wtime();
        double h = 1.0 / n;
        double sum = 0.0;
        for (long i = rank; i < n; i += size) {
            double x = h * (i + 0.5);
            sum += 4.0 / (1.0 + x * x);
        }
        double[] partial = {sum * h};
        if (rank == 0) {
            double pi = partial[0];
            double[] in = new double[1];
            for (int r = 1; r < size; r++) {
                MPI.COMM_WORLD.Recv(in, 0, 1, MPI.DOUBLE, r, TAG);
                pi += in[0];
            }
            System.out.printf("pi is approximately %.16f, error %.3e, %d intervals on %d ranks, %.3f s%n",
                    pi, Math.abs(pi - Math.PI), n, size, MPI.Wtime() - t0);
        } else {
            MPI.COMM_WORLD.Send(partial, 0, 1, MPI.DOUBLE, 0, TAG);
        }
        MPI.Finalize();
    }
}
