package dev.mpj.it;

import dev.mpj.runtime.MpjRuntime;
import dev.mpj.runtime.config.ConnectionMode;
import dev.mpj.runtime.spi.ConnectionStats;
import mpi.MPI;
import mpi.Request;

/**
 * Every rank sends to every other rank as its very first messages, all at the same moment, so every pair's two
 * ranks connect to each other at once (on demand). Checks that each message arrives once and in order, then
 * adds up the TCP connections of the job: rank 0 prints "firstcontact connections N".
 */
public final class FirstContactProgram {
    private static final int MESSAGES = 20;

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        boolean onDemand = MpjRuntime.current().connectionMode() == ConnectionMode.ONDEMAND;
        // On demand a faster peer may already have connected to this rank, so only what it opened itself is fixed.
        ConnectionStats atInit = MpjRuntime.current().connectionStats();
        if (onDemand) {
            Check.equal(0, atInit.initiated(), "connections this rank opened before its first message");
        } else {
            Check.equal(size - 1, atInit.opened(), "connections before the first message");
        }

        int[][] in = new int[size][2 * MESSAGES];
        Request[] requests = new Request[2 * (size - 1) * MESSAGES];
        int n = 0;
        for (int peer = 0; peer < size; peer++) {
            for (int seq = 0; seq < MESSAGES && peer != rank; seq++) {
                requests[n++] = MPI.COMM_WORLD.Irecv(in[peer], 2 * seq, 2, MPI.INT, peer, 7);
            }
        }
        int[][] out = new int[size][];
        for (int k = 1; k < size; k++) { // every rank starts with a different peer: all pairs race at once
            int peer = (rank + k) % size;
            out[peer] = new int[2 * MESSAGES];
            for (int seq = 0; seq < MESSAGES; seq++) {
                out[peer][2 * seq] = rank;
                out[peer][2 * seq + 1] = seq;
                // same tag for all: only the non-overtaking order tells them apart
                requests[n++] = MPI.COMM_WORLD.Isend(out[peer], 2 * seq, 2, MPI.INT, peer, 7);
            }
        }
        Request.Waitall(requests);
        for (int peer = 0; peer < size; peer++) {
            for (int seq = 0; seq < MESSAGES && peer != rank; seq++) {
                Check.equal(peer, in[peer][2 * seq], "sender of message " + seq + " from " + peer);
                Check.equal(seq, in[peer][2 * seq + 1], "order of message " + seq + " from " + peer);
            }
        }

        // every frame from every peer has arrived, so every connection of this rank completed its handshake
        ConnectionStats stats = MpjRuntime.current().connectionStats();
        Check.equal(size - 1, stats.opened(), "connections of this rank");
        Check.equal(size - 1, stats.peersTalkedTo(), "peers talked to");
        int[] counts = {stats.initiated(), stats.accepted()};
        int[] total = new int[2];
        MPI.COMM_WORLD.Reduce(counts, 0, total, 0, 2, MPI.INT, MPI.SUM, 0);
        if (rank == 0) {
            Check.equal(total[0], total[1], "connections initiated and accepted in the job");
            System.out.println("firstcontact connections " + total[0]);
        }
        Check.done("firstcontact");
        MPI.Finalize();
    }
}
