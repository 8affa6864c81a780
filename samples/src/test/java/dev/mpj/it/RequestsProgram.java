package dev.mpj.it;

import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Persistent requests restarted many times around a ring, Waitany and Testsome over receives from
 * every other rank, a window of byte receives into one array, and Sendrecv / Sendrecv_replace shifts, all checked by
 * content.
 */
public final class RequestsProgram {
    private RequestsProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;

        int[] out = new int[1000];
        int[] in = new int[1000];
        Prequest[] ring = {
            MPI.COMM_WORLD.Recv_init(in, 0, in.length, MPI.INT, prev, 5),
            MPI.COMM_WORLD.Send_init(out, 0, out.length, MPI.INT, next, 5)
        };
        for (int iter = 0; iter < 50; iter++) {
            java.util.Arrays.fill(out, rank * 1000 + iter);
            Prequest.Startall(ring);
            Request.Waitall(ring);
            Check.equal(prev * 1000 + iter, in[999], "persistent ring iteration " + iter);
        }

        // Waitany: one receive per other rank, completed in whatever order they come.
        if (size > 1) {
            int[][] got = new int[size - 1][1];
            Request[] recvs = new Request[size - 1];
            for (int i = 0; i < size - 1; i++) {
                int src = (rank + 1 + i) % size;
                recvs[i] = MPI.COMM_WORLD.Irecv(got[i], 0, 1, MPI.INT, src, 6);
            }
            Request[] sends = new Request[size - 1];
            int[] me = {rank};
            for (int i = 0; i < size - 1; i++) {
                sends[i] = MPI.COMM_WORLD.Isend(me, 0, 1, MPI.INT, (rank + 1 + i) % size, 6);
            }
            boolean[] seen = new boolean[size - 1];
            for (int k = 0; k < size - 1; k++) {
                Status s = Request.Waitany(recvs);
                Check.that(!seen[s.index], "index " + s.index + " returned twice");
                seen[s.index] = true;
                Check.equal((rank + 1 + s.index) % size, got[s.index][0], "Waitany data");
                Check.equal(got[s.index][0], s.source, "Waitany source");
            }
            Check.that(Request.Waitany(recvs).index == MPI.UNDEFINED, "Waitany on all-null gives UNDEFINED");
            Request.Waitall(sends);

            // Testsome until all have come.
            for (int i = 0; i < size - 1; i++) {
                recvs[i] = MPI.COMM_WORLD.Irecv(got[i], 0, 1, MPI.INT, (rank + 1 + i) % size, 8);
            }
            for (int i = 0; i < size - 1; i++) {
                sends[i] = MPI.COMM_WORLD.Isend(me, 0, 1, MPI.INT, (rank + 1 + i) % size, 8);
            }
            int completed = 0;
            double deadline = MPI.Wtime() + 30;
            while (completed < size - 1) {
                Status[] some = Request.Testsome(recvs);
                if (some != null) {
                    completed += some.length;
                }
                Check.that(MPI.Wtime() < deadline, "Testsome never completed everything");
            }
            Request.Waitall(sends);

            // A window of byte receives from the previous rank into consecutive runs of one array, from its second
            // byte: each run gets its own message, and the bytes around the runs stay as they were.
            int window = 16;
            int run = 13;
            byte[] runs = new byte[window * run + 2];
            byte[] mine = new byte[window * run];
            for (int i = 0; i < mine.length; i++) {
                mine[i] = (byte) (rank * 31 + i);
            }
            Request[] parts = new Request[window];
            Request[] outs = new Request[window];
            for (int i = 0; i < window; i++) {
                parts[i] = MPI.COMM_WORLD.Irecv(runs, 1 + run * i, run, MPI.BYTE, prev, 11);
            }
            for (int i = 0; i < window; i++) {
                outs[i] = MPI.COMM_WORLD.Isend(mine, run * i, run, MPI.BYTE, next, 11);
            }
            Status[] landed = Request.Waitall(parts);
            Request.Waitall(outs);
            Check.equal(run, landed[window - 1].Get_count(MPI.BYTE), "byte window count");
            Check.equal(0, runs[0], "byte before the window");
            Check.equal(0, runs[runs.length - 1], "byte after the window");
            for (int i = 0; i < mine.length; i++) {
                Check.equal((byte) (prev * 31 + i), runs[1 + i], "byte window data at " + i);
            }
        }

        // Sendrecv shifts to the right; Sendrecv_replace shifts back.
        double[] v = {rank, rank * 2.0};
        double[] w = new double[2];
        Status s = MPI.COMM_WORLD.Sendrecv(v, 0, 2, MPI.DOUBLE, next, 9, w, 0, 2, MPI.DOUBLE, prev, 9);
        Check.equal(prev, s.source, "Sendrecv source");
        Check.that(w[1] == prev * 2.0, "Sendrecv data");
        MPI.COMM_WORLD.Sendrecv_replace(w, 0, 2, MPI.DOUBLE, prev, 10, next, 10);
        Check.that(w[0] == rank, "Sendrecv_replace data");
        Check.done("requests");
        MPI.Finalize();
    }
}
