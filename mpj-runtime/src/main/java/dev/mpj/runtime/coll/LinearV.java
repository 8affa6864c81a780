package dev.mpj.runtime.coll;

import dev.mpj.api.Operation;

import java.nio.ByteBuffer;

/**
 * The irregular collectives whose blocks differ in size, as MPICH does them: the root (or every member,
 * for alltoallv) posts all its receives and sends at once and waits for them together, which keeps every
 * link busy without any member forwarding another's data.
 */
final class LinearV {
    private LinearV() {
    }

    /** Member i's {@code send} lands in the root's {@code recv[i]}; {@code peers} numbered by rank. */
    static void gatherv(Peers peers, ByteBuffer send, ByteBuffer[] recv, int root) {
        int me = peers.me();
        if (me != root) {
            peers.send(root, send);
            return;
        }
        int p = peers.size();
        Operation[] receives = new Operation[p];
        int[] from = new int[p];
        for (int i = 0; i < p; i++) {
            from[i] = i;
            if (i != me) {
                receives[i] = peers.startReceive(i, recv[i]);
            }
        }
        Bytes.copy(send, recv[me]);
        peers.waitReceives(receives, recv, from);
    }

    /** The root's {@code send[i]} lands in member i's {@code recv} (null at the root: nothing to copy). */
    static void scatterv(Peers peers, ByteBuffer[] send, ByteBuffer recv, int root) {
        int me = peers.me();
        if (me != root) {
            peers.receive(root, recv);
            return;
        }
        int p = peers.size();
        Operation[] sends = new Operation[p];
        for (int i = 0; i < p; i++) {
            if (i != me) {
                sends[i] = peers.startSend(i, send[i]);
            }
        }
        if (recv != null) {
            Bytes.copy(send[me], recv);
        }
        peers.waitAll(sends);
    }

    /**
     * Member i's {@code send[j]} lands in member j's {@code recv[i]}. Peers are visited from the caller's
     * right-hand neighbour on, so not everyone sends to rank 0 first.
     */
    static void alltoallv(Peers peers, ByteBuffer[] send, ByteBuffer[] recv) {
        alltoallvRounds(new Schedule(peers), send, recv).run();
    }

    /** Appends {@link #alltoallv} as one round to {@code s}: every receive and send posted at once. */
    static Schedule alltoallvRounds(Schedule s, ByteBuffer[] send, ByteBuffer[] recv) {
        int p = s.peers().size();
        int me = s.peers().me();
        Bytes.copy(send[me], recv[me]);
        if (p > 1) {
            s.then(new AllPairs(me, p, send, recv));
        }
        return s;
    }

    /** The round of {@link #alltoallvRounds}: member {@code me}'s receives from every other member, then its sends. */
    private static final class AllPairs implements Schedule.Round {
        private final int me;
        private final int p;
        private final ByteBuffer[] send;
        private final ByteBuffer[] recv;

        AllPairs(int me, int p, ByteBuffer[] send, ByteBuffer[] recv) {
            this.me = me;
            this.p = p;
            this.send = send;
            this.recv = recv;
        }

        @Override
        public void start(Schedule s) {
            for (int k = 1; k < p; k++) {
                int src = (me - k + p) % p;
                s.receive(src, recv[src]);
            }
            for (int k = 1; k < p; k++) {
                int dst = (me + k) % p;
                s.send(dst, send[dst]);
            }
        }
    }
}
