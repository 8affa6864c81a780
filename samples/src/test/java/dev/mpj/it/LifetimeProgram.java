package dev.mpj.it;

import mpi.MPI;

/**
 * Every rank starts a child ({@code sleep 1000} in a shell whose arguments carry the job's marker, so a
 * test can find it) and then,
 * by {@code args[0]}: {@code before} waits without calling MPI.Init; {@code inside} calls MPI.Init on every
 * rank but the last, which never does, so the others wait inside it; {@code normal} runs MPI.Init and
 * MPI.Finalize and exits 0, leaving its child running; {@code killed} has rank 1 SIGKILL itself after MPI.Init.
 */
public final class LifetimeProgram {
    private LifetimeProgram() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int rank = Integer.parseInt(System.getenv("PMI_RANK"));
        int size = Integer.parseInt(System.getenv("PMI_SIZE"));
        // a shell that waits for sleep rather than becoming it, so its arguments keep the marker
        new ProcessBuilder("bash", "-c", "sleep 1000; exit 0", "mpj.it.job=" + System.getProperty("mpj.it.job"))
                .start();
        System.out.println("ready rank " + rank);
        System.out.flush();
        if (mode.equals("before") || (mode.equals("inside") && rank == size - 1)) {
            Thread.sleep(600_000);
        }
        MPI.Init(args);
        if (mode.equals("killed") && rank == 1) {
            new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).start().waitFor();
            Thread.sleep(60_000);
        }
        if (mode.equals("killed")) {
            MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 1);
        }
        MPI.Finalize();
    }
}
