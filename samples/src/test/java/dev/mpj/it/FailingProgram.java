package dev.mpj.it;

import mpi.MPI;

/**
 * Fails on purpose in rank 1, as {@code args[0]} says: {@code exit7} (System.exit(7) before Finalize),
 * {@code throw} (an uncaught exception), {@code abort3} (MPI.COMM_WORLD.Abort(3)), {@code hang} (nothing:
 * every rank prints that it is ready and waits, for tests that stop the launcher). The other ranks wait
 * in a receive that never matches, so only the launcher can end the job.
 */
public final class FailingProgram {
    private FailingProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        if (MPI.COMM_WORLD.Rank() == 1) {
            switch (args[0]) {
                case "exit7" -> System.exit(7);
                case "throw" -> throw new IllegalStateException("rank 1 fails on purpose");
                case "abort3" -> MPI.COMM_WORLD.Abort(3);
                case "hang" -> { }
                default -> throw new IllegalArgumentException(args[0]);
            }
        }
        System.out.println("ready rank " + MPI.COMM_WORLD.Rank());
        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 1);
        MPI.Finalize();
    }
}
