package dev.mpj.it;

import mpi.MPI;

/**
 * A job of one that says how it was started ({@code direct} when the {@code mpjrun} script started it without the
 * launcher, else {@code launched}), then ends as the variable {@code PROBE_END} says: {@code finalize} (the default),
 * {@code abort5} (MPI.Abort(5)), {@code return} (main returns without MPI.Finalize), {@code exit7} (System.exit(7)
 * without MPI.Finalize). The variable is none the script compares, so every ending can follow a job that succeeded.
 */
public final class SingletonProbeProgram {
    private SingletonProbeProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        boolean direct = System.getenv("PMI_PORT") == null && "1".equals(System.getenv("MPJ_MPJRUN_SINGLETON"));
        System.out.println("started " + (direct ? "direct" : "launched") + " as rank " + MPI.COMM_WORLD.Rank()
                + " of " + MPI.COMM_WORLD.Size());
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
