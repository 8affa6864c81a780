package dev.mpj.it;

import mpi.MPI;

/**
 * Invalid arguments raise MPIException with the MPI error class the standard names, and the job goes on:
 * every rank tries each mistake, then ranks 0 and 1 check that a too-long message is reported as
 * truncated.
 */
public final class ErrorsProgram {
    private ErrorsProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int size = MPI.COMM_WORLD.Size();
        int[] buf = new int[4];
        Check.raises(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Send(buf, 0, 1, MPI.INT, size, 0));
        Check.raises(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Recv(buf, 0, 1, MPI.INT, -7, 0));
        Check.raises(MPI.ERR_TAG, () -> MPI.COMM_WORLD.Send(buf, 0, 1, MPI.INT, 0, -5));
        Check.raises(MPI.ERR_COUNT, () -> MPI.COMM_WORLD.Send(buf, 0, -1, MPI.INT, 0, 0));
        Check.raises(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(buf, 2, 3, MPI.INT, 0, 0));
        Check.raises(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(null, 0, 1, MPI.INT, 0, 0));
        Check.raises(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new double[1], 0, 1, MPI.INT, 0, 0));
        if (size > 1 && MPI.COMM_WORLD.Rank() < 2) {
            int peer = 1 - MPI.COMM_WORLD.Rank();
            for (int n : new int[]{4, 100_000}) { // eager and rendezvous
                int[] big = new int[n];
                if (peer == 1) {
                    MPI.COMM_WORLD.Send(big, 0, n, MPI.INT, peer, 1);
                } else {
                    int[] small = new int[2];
                    Check.raises(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Recv(small, 0, 2, MPI.INT, peer, 1));
                }
            }
        }
        MPI.COMM_WORLD.Barrier();
        Check.done("errors");
        MPI.Finalize();
    }
}
