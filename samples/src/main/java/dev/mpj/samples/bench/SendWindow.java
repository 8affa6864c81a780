package dev.mpj.samples.bench;

import mpi.MPI;
import mpi.Request;

/**
 * One window of OSU's streaming tests ({@code osu_bw}, {@code osu_mbw_mr}): the sender posts {@link #WINDOW}
 * non-blocking sends of one size, the receiver as many non-blocking receives, and a 4-byte acknowledgement goes back
 * once the receiver has them all, so the sender cannot run more than a window ahead.
 */
final class SendWindow {
    static final int WINDOW = 64;
    private static final int TAG = 2;
    private static final int ACK_TAG = 3;

    private final Request[] requests = new Request[WINDOW];
    private final byte[] ack = new byte[4];

    /**
     * Sends one window of {@code size} bytes from {@code buffer} (an array or a direct buffer) to {@code peer} and
     * waits for its acknowledgement.
     */
    void send(Object buffer, int size, int peer) {
        for (int w = 0; w < WINDOW; w++) {
            requests[w] = MPI.COMM_WORLD.Isend(buffer, 0, size, MPI.BYTE, peer, TAG);
        }
        Request.Waitall(requests);
        MPI.COMM_WORLD.Recv(ack, 0, ack.length, MPI.BYTE, peer, ACK_TAG);
    }

    /**
     * {@code warmup} then {@code iterations} windows between this rank and {@code peer}, sending them when
     * {@code sender}, else receiving them; returns the seconds the timed iterations took.
     */
    double stream(Object buffer, int size, int peer, boolean sender, int warmup, int iterations) {
        double start = 0;
        for (int i = 0; i < warmup + iterations; i++) {
            if (i == warmup) {
                start = MPI.Wtime();
            }
            if (sender) {
                send(buffer, size, peer);
            } else {
                receive(buffer, size, peer);
            }
        }
        return MPI.Wtime() - start;
    }

    /** Receives one window of {@code size} bytes from {@code peer} into {@code buffer} and acknowledges it. */
    void receive(Object buffer, int size, int peer) {
        for (int w = 0; w < WINDOW; w++) {
            requests[w] = MPI.COMM_WORLD.Irecv(buffer, 0, size, MPI.BYTE, peer, TAG);
        }
        Request.Waitall(requests);
        MPI.COMM_WORLD.Send(ack, 0, ack.length, MPI.BYTE, peer, ACK_TAG);
    }
}
