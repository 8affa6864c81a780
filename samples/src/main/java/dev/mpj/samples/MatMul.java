package dev.mpj.samples;


import mpi.MPI;

/**
 * Row-block matrix multiply C = A·B of n×n matrices (default 512), a teaching example of the
 * collectives: rank 0 builds A and B, {@code Bcast} gives every rank all of B, {@code Scatterv}
 * deals out blocks of rows of A (as even as n allows), each rank multiplies its rows, and
 * {@code Gatherv} collects the rows of C at rank 0, which checks them against the exact product.
 * {@code ./mpjrun -np 4 matmul [n]}
 */
public final class MatMul {
    private MatMul() {
    }

    /** A(i, j) = i + j and B(i, j) = i - j: small integers, so every product is exact in double. */
    static double a(int i, int j) {
        return i + j;
    }

    static double b(int i, int j) {
        return i - j;
    }

    /** C(i, j) = Σ_k (i + k)(k - j), in closed form. */
    static double exact(int i, int j, int n) {
        double s1 = (double) n * (n - 1) / 2;          // Σ k
        double s2 = (double) (n - 1) * n * (2L * n - 1) / 6;  // Σ k²
        return s2 + (i - j) * s1 - (double) i * j * n;
    }

    public static void main(String[] args) {
        String[] rest = MPI.Init(args);
        if (JobExit.helpAsked(rest)) {
            JobExit.usage("usage: matmul [N]   (N x N matrix product, rows scattered over the ranks; default 512)");
        }
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int n = 512;
        try {
            n = rest.length > 0 ? Integer.parseInt(rest[0]) : n;
            if (n < 1 || (long) n * n > Integer.MAX_VALUE) {
                throw new NumberFormatException("n must be in 1.." + (int) Math.sqrt(Integer.MAX_VALUE));
            }
        } catch (NumberFormatException e) {
            JobExit.refuse("matmul", "bad matrix size (" + e.getMessage() + ")");
        }

        // rows of A per rank, as even as possible, in elements
        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int r = 0, row = 0; r < size; r++) {
            int rows = n / size + (r < n % size ? 1 : 0);
            counts[r] = rows * n;
            displs[r] = row * n;
            row += rows;
        }
        int myRows = counts[rank] / n;

        double[] bMatrix = new double[n * n];
        double[] aMatrix = rank == 0 ? new double[n * n] : null;
        if (rank == 0) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    aMatrix[i * n + j] = a(i, j);
                    bMatrix[i * n + j] = b(i, j);
                }
            }
        }
        double t0 = MPI.Wtime();
        MPI.COMM_WORLD.Bcast(bMatrix, 0, n * n, MPI.DOUBLE, 0);
        double[] myA = new double[Math.max(counts[rank], 1)];
        MPI.COMM_WORLD.Scatterv(aMatrix, 0, counts, displs, MPI.DOUBLE, myA, 0, counts[rank], MPI.DOUBLE, 0);

        double[] myC = new double[Math.max(counts[rank], 1)];
        for (int i = 0; i < myRows; i++) {
            for (int k = 0; k < n; k++) {
                double aik = myA[i * n + k];
                for (int j = 0; j < n; j++) {
                    myC[i * n + j] += aik * bMatrix[k * n + j];
                }
            }
        }

        double[] c = rank == 0 ? new double[n * n] : null;
        MPI.COMM_WORLD.Gatherv(myC, 0, counts[rank], MPI.DOUBLE, c, 0, counts, displs, MPI.DOUBLE, 0);
        double seconds = MPI.Wtime() - t0;
        if (rank == 0) {
            int wrong = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (c[i * n + j] != exact(i, j, n)) {
                        wrong++;
                    }
                }
            }
            Lines.printf("matmul n=%d np=%d time_s=%.3f gflops=%.3f %s%n", n, size, seconds,
                    2.0 * n * n * n / seconds / 1e9, wrong == 0 ? "correct" : wrong + " WRONG elements");
            if (wrong != 0) {
                MPI.COMM_WORLD.Abort(1);
            }
        }
        MPI.Finalize();
    }
}
