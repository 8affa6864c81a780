package dev.mpj.it;

import mpi.MPI;
import mpi.Request;

/**
 * A job that hangs on purpose, for the wait report. {@code recv}: rank 1 receives (source 0, tag 99) a message
 * nobody sends while rank 0 finalizes. {@code ssend}: rank 1 waits on an Irecv of tag 7 while rank 0's
 * synchronous send of tag 8, which that receive does not match, waits in its turn. Each rank prints
 * {@code ready rank N} before it blocks.
 */
public final class HangingProgram {
    private HangingProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int[] data = new int[1];
        System.out.println("ready rank " + rank);
        System.out.flush();
        if (args[0].equals("recv")) {
            if (rank == 1) {
                MPI.COMM_WORLD.Recv(data, 0, 1, MPI.INT, 0, 99);
            }
        } else if (rank == 0) {
            MPI.COMM_WORLD.Ssend(data, 0, 1, MPI.INT, 1, 8);
        } else if (rank == 1) {
            Request r = MPI.COMM_WORLD.Irecv(data, 0, 1, MPI.INT, 0, 7);
            r.Wait();
        }
        MPI.Finalize();
    }
}
