package dev.mpj.it;

import mpi.MPI;

import java.nio.file.Path;

/**
 * Prints what mpjrun's flags give a rank: {@code rank R X=x Y=y cwd=DIR local L of N}, where X and Y are
 * environment variables, DIR the working directory and L of N the rank's place on its node.
 */
public final class FlagsProbeProgram {
    private FlagsProbeProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        MPI.COMM_WORLD.Barrier();
        System.out.println("rank " + rank + " X=" + System.getenv("X") + " Y=" + System.getenv("Y") + " cwd="
                + Path.of("").toAbsolutePath() + " local " + System.getenv("MPI_LOCALRANKID") + " of "
                + System.getenv("MPI_LOCALNRANKS"));
        MPI.Finalize();
    }
}
