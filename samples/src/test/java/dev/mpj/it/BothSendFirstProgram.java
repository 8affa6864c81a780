package dev.mpj.it;

import mpi.MPI;
import mpi.Request;

/**
 * Pairs of ranks (0-1, 2-3, …) send to each other before either receives: with blocking sends at eager
 * sizes (which MPI lets complete without a matching receive), and with nonblocking sends of 8 MiB, where
 * rendezvous and full rings must not deadlock. Data is checked both ways.
 */
public final class BothSendFirstProgram {
    private BothSendFirstProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int peer = rank ^ 1;
        if (peer < MPI.COMM_WORLD.Size()) {
            for (int n : new int[]{1, 1000, 8000}) { // ints: 4 B to 32 KB, all eager
                int[] out = fill(n, rank);
                int[] in = new int[n];
                for (int round = 0; round < 20; round++) {
                    MPI.COMM_WORLD.Send(out, 0, n, MPI.INT, peer, round);
                }
                for (int round = 0; round < 20; round++) {
                    MPI.COMM_WORLD.Recv(in, 0, n, MPI.INT, peer, round);
                    check(in, peer, n);
                }
            }
            int n = (8 << 20) / 4;
            int[] out = fill(n, rank);
            int[] in = new int[n];
            Request[] sends = {
                MPI.COMM_WORLD.Isend(out, 0, n / 2, MPI.INT, peer, 100),
                MPI.COMM_WORLD.Isend(out, n / 2, n - n / 2, MPI.INT, peer, 101)
            };
            MPI.COMM_WORLD.Recv(in, 0, n / 2, MPI.INT, peer, 100);
            MPI.COMM_WORLD.Recv(in, n / 2, n - n / 2, MPI.INT, peer, 101);
            Request.Waitall(sends);
            check(in, peer, n);
        }
        Check.done("bothsend");
        MPI.Finalize();
    }

    private static int[] fill(int n, int rank) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i * 31 + rank;
        }
        return a;
    }

    private static void check(int[] in, int peer, int n) {
        for (int i = 0; i < n; i++) {
            if (in[i] != i * 31 + peer) {
                Check.that(false, "element " + i + " of " + n + " from rank " + peer + " is " + in[i]);
            }
        }
    }
}
