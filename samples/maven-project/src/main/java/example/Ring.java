package example;

import mpi.MPI;

/** Passes a token once round the ranks; rank 0 prints what came back. */
public class Ring {
    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int[] token = {0};
        if (rank == 0) {
            token[0] = 1;
            MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, 1 % size, 0);
            MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, (size - 1) % size, 0);
            System.out.println("ring of " + size + ": token " + token[0] + " (expected " + size + ")");
        } else {
            MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, rank - 1, 0);
            token[0]++;
            MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, (rank + 1) % size, 0);
        }
        MPI.Finalize();
    }
}
