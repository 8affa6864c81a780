package dev.mpj.it;

import mpi.MPI;

/**
 * Every rank but 0 prints the trace of an uncaught exception (in a thread of its own, so the rank lives on),
 * then all meet in a barrier and rank 0 exits with status 3 before MPI.Finalize: a failed job whose other ranks
 * have printed traces.
 */
public final class NoisyFailureProgram {
    private NoisyFailureProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        if (rank != 0) {
            Thread t = new Thread(() -> {
                throw new IllegalStateException("rank " + rank + " breaks", new RuntimeException("root cause"));
            }, "worker");
            t.start();
            t.join();
        }
        MPI.COMM_WORLD.Barrier();
        if (rank == 0) {
            System.exit(3);
        }
        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 0, 1);
        MPI.Finalize();
    }
}
