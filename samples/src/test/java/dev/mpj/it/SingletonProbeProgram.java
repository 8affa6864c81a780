package dev.mpj.it;

import mpi.MPI;
import mpi.Request;

/**
 * A job of one that says how it was started ({@code direct} when the {@code mpjrun} script started it without the
 * launcher, else {@code launched}) and what a message to itself brought into an {@code int[]} (a direct start runs
 * without the segment export, so the receive must not take the copy into arrays that needs it), then ends as the variable {@code PROBE_END} says: {@code finalize} (the default),
 * {@code abort5} (MPI.Abort(5)), {@code return} (main returns without MPI.Finalize), {@code exit7} (System.exit(7)
 * without MPI.Finalize). The variable is none the script compares, so every ending can follow a job that succeeded.
 */
public final class SingletonProbeProgram {
    private SingletonProbeProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        boolean direct = System.getenv("PMI_PORT") == null && "1".equals(System.getenv("MPJ_MPJRUN_SINGLETON"));
        int[] got = new int[3];
        Request sent = MPI.COMM_WORLD.Isend(new int[] {41, 42, 43}, 1, 2, MPI.INT, 0, 9);
        MPI.COMM_WORLD.Recv(got, 1, 2, MPI.INT, 0, 9);
        sent.Wait();
        System.out.println("started " + (direct ? "direct" : "launched") + " as rank " + MPI.COMM_WORLD.Rank()
                + " of " + MPI.COMM_WORLD.Size() + ", received " + got[0] + " " + got[1] + " " + got[2]);
        System.out.flush();
        String end = System.getenv().getOrDefault("PROBE_END", "finalize");
        switch (end) {
            case "finalize" -> MPI.Finalize();
            case "abort5" -> MPI.COMM_WORLD.Abort(5);
            case "return" -> { }
            case "exit7" -> System.exit(7);
            default -> throw new IllegalArgumentException(end);
        }
    }
}
