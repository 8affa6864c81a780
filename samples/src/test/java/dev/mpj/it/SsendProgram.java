package dev.mpj.it;

import mpi.MPI;
import mpi.Request;

/**
 * A synchronous send must not complete before the receiver has matched it: rank 1 posts its receive only
 * after rank 0 tells it to, and rank 0 checks that its Issend stayed incomplete until then. Small
 * (eager) and large (rendezvous) messages; every odd rank pairs with the even rank below it.
 */
public final class SsendProgram {
    private SsendProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int peer = rank ^ 1;
        if (peer < size) {
            for (int n : new int[]{1, 4 << 20}) {
                byte[] data = new byte[n];
                int[] go = new int[1];
                if (rank % 2 == 0) {
                    Request r = MPI.COMM_WORLD.Issend(data, 0, n, MPI.BYTE, peer, 1);
                    double until = MPI.Wtime() + 0.2;
                    while (MPI.Wtime() < until) {
                        Check.that(r.Test() == null, "Issend of " + n + " bytes completed before the match");
                    }
                    MPI.COMM_WORLD.Send(go, 0, 1, MPI.INT, peer, 2);
                    r.Wait();
                    MPI.COMM_WORLD.Ssend(data, 0, n, MPI.BYTE, peer, 3);
                } else {
                    MPI.COMM_WORLD.Recv(go, 0, 1, MPI.INT, peer, 2);
                    MPI.COMM_WORLD.Recv(data, 0, n, MPI.BYTE, peer, 1);
                    MPI.COMM_WORLD.Recv(data, 0, n, MPI.BYTE, peer, 3);
                }
            }
        }
        Check.done("ssend");
        MPI.Finalize();
    }
}
