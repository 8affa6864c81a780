package dev.mpj.it;

import mpi.MPI;

/**
 * Rank 1 (by {@code PMI_RANK}) exits with status {@code args[0]} before calling {@code MPI.Init}; the other ranks
 * call it and so wait for rank 1, which never comes, until the launcher ends the job.
 */
public final class ExitBeforeInitProgram {
    private ExitBeforeInitProgram() {
    }

    public static void main(String[] args) {
        if ("1".equals(System.getenv("PMI_RANK"))) {
            System.exit(Integer.parseInt(args[0]));
        }
        MPI.Init(args);
        MPI.Finalize();
    }
}
