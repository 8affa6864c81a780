package dev.mpj.samples;

import mpi.MPI;
import mpi.Status;

/**
 * A token goes round the ring {@code laps} times (default 10), each rank adding one to it as it passes.
 * {@code ./mpjrun -np 4 ring [laps]}
 */
public final class Ring {
    private static final int TAG = 201;

    private Ring() {
    }

    public static void main(String[] args) {
        String[] rest = MPI.Init(args);
        if (JobExit.helpAsked(rest)) {
            JobExit.usage("usage: ring [LAPS]   (a token goes LAPS times round the ranks; default 10)");
        }
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int laps = rest.length > 0 ? Integer.parseInt(rest[0]) : 10;
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int[] token = new int[1];
        double t0 = MPI.Wtime();
        for (int lap = 0; lap < laps; lap++) {
            if (rank == 0) {
                token[0]++;
                MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, next, TAG);
                MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, prev, TAG);
            } else {
                Status s = MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, prev, TAG);
                if (s.source != prev) {
                    throw new IllegalStateException("token came from " + s.source + ", expected " + prev);
                }
                token[0]++;
                MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, next, TAG);
            }
        }
        double t = MPI.Wtime() - t0;
        if (rank == 0) {
            Lines.printf("ring: %d laps over %d ranks, token = %d (expected %d), %.1f us per hop%n",
                    laps, size, token[0], laps * size, t * 1e6 / Math.max(1, laps * size));
        }
        MPI.Finalize();
    }
}
