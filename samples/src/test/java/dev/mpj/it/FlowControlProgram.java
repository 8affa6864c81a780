package dev.mpj.it;

import mpi.MPI;
import mpi.Request;

/**
 * Floods a rank that is busy: ranks 0 and 1 exchange {@code count} messages of 4 KiB while the receiving rank
 * sleeps for the first 2 s, which without flow control queues every message in memory. Each message's first and
 * last ints carry its index, checked on arrival. Modes: {@code send} (rank 0 sends with blocking standard sends),
 * {@code isend} (rank 0 keeps windows of nonblocking sends, waited in batches), {@code both} (each rank sends
 * windows to the other and receives the other's, rank 1 starting late).
 */
public final class FlowControlProgram {
    private static final int INTS = 1024;
    private static final int WINDOW = 64;

    private FlowControlProgram() {
    }

    public static void main(String[] args) throws InterruptedException {
        MPI.Init(args);
        String mode = args[0];
        int count = Integer.parseInt(args[1]);
        int rank = MPI.COMM_WORLD.Rank();
        int peer = 1 - rank;
        if (rank <= 1) {
            switch (mode) {
                case "send" -> {
                    if (rank == 0) {
                        int[] out = new int[INTS];
                        for (int i = 0; i < count; i++) {
                            mark(out, i);
                            MPI.COMM_WORLD.Send(out, 0, INTS, MPI.INT, peer, 1);
                        }
                    } else {
                        Thread.sleep(2000);
                        receive(peer, count);
                    }
                }
                case "isend" -> {
                    if (rank == 0) {
                        isend(peer, count, false);
                    } else {
                        Thread.sleep(2000);
                        receive(peer, count);
                    }
                }
                case "both" -> {
                    if (rank == 1) {
                        Thread.sleep(2000);
                    }
                    isend(peer, count, true);
                }
                default -> throw new IllegalArgumentException("mode " + mode);
            }
        }
        Check.done("flow");
        MPI.Finalize();
    }

    /** Windows of nonblocking sends; with {@code receiveToo}, each window's worth of the peer's messages is received before the sends are waited. */
    private static void isend(int peer, int count, boolean receiveToo) {
        int[][] out = new int[WINDOW][INTS];
        int[] in = new int[INTS];
        Request[] sends = new Request[WINDOW];
        for (int base = 0; base < count; base += WINDOW) {
            int n = Math.min(WINDOW, count - base);
            for (int k = 0; k < n; k++) {
                mark(out[k], base + k);
                sends[k] = MPI.COMM_WORLD.Isend(out[k], 0, INTS, MPI.INT, peer, 1);
            }
            if (receiveToo) {
                for (int k = 0; k < n; k++) {
                    MPI.COMM_WORLD.Recv(in, 0, INTS, MPI.INT, peer, 1);
                    check(in, base + k, peer);
                }
            }
            for (int k = 0; k < n; k++) {
                sends[k].Wait();
            }
        }
    }

    private static void receive(int peer, int count) {
        int[] in = new int[INTS];
        for (int i = 0; i < count; i++) {
            MPI.COMM_WORLD.Recv(in, 0, INTS, MPI.INT, peer, 1);
            check(in, i, peer);
        }
    }

    private static void mark(int[] a, int index) {
        a[0] = index;
        a[INTS - 1] = ~index;
    }

    private static void check(int[] in, int index, int peer) {
        if (in[0] != index || in[INTS - 1] != ~index) {
            Check.that(false, "message " + index + " from rank " + peer + " carries " + in[0] + " and " + ~in[INTS - 1]);
        }
    }
}
