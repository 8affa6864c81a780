package dev.mpj.samples;

import mpi.MPI;

/**
 * Ends a job that cannot run (bad arguments, a process count the program does not support, too
 * little memory). Every rank reaches the same decision, so rank 0 alone explains it and aborts the
 * job; the others wait to be stopped, so that the message is not lost in a race.
 */
public final class JobExit {
    /** The exit status of a refused job. */
    public static final int REFUSED = 2;

    private JobExit() {
    }

    /** Whether the command line asks for the program's usage ({@code -h} or {@code --help}). */
    public static boolean helpAsked(String[] args) {
        for (String a : args) {
            if (a.equals("-h") || a.equals("--help")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Answers {@code --help}: rank 0 prints {@code usage} on standard output, every rank leaves MPI, and the job
     * ends with status 0. Call it after {@code MPI.Init}, on every rank.
     */
    public static void usage(String usage) {
        if (MPI.COMM_WORLD.Rank() == 0) {
            System.out.println(usage);
            System.out.flush();
        }
        MPI.Finalize();
        System.exit(0);
    }

    /** Prints {@code program: message} (rank 0) and ends the whole job with status {@link #REFUSED}. */
    public static void refuse(String program, String message) {
        if (MPI.COMM_WORLD.Rank() == 0) {
            System.out.flush();
            System.err.println(program + ": " + message);
            System.err.flush();
            MPI.COMM_WORLD.Abort(REFUSED);
        }
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        MPI.COMM_WORLD.Abort(REFUSED);
    }
}
