package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;

import java.nio.ByteBuffer;

/**
 * The three allreduce algorithms. All leave the result in {@code recv}, which they also use as the
 * accumulator; {@code send} is copied into it (by Rabenseifner's, half of it during its first step) and never read
 * after that (so it may alias it).
 *
 * <p>For P not a power of two, recursive doubling and Rabenseifner fold first, as MPICH does: of the first
 * 2·r members (r = P − 2^⌊log2 P⌋) each even one sends its vector to the odd one above, which combines them
 * (lower rank first) and stands for both; the 2^⌊log2 P⌋ remaining members run the power-of-two
 * algorithm; then each odd one of those pairs sends the result down to its even partner.
 */
final class Allreduce {
    private Allreduce() {
    }

    /**
     * Recursive doubling: log2(P) exchanges of the whole vector. The partners' partial results cover
     * adjacent rank ranges, so combining the lower one first keeps rank order: correct for
     * non-commutative operations. The choice for short vectors.
     */
    static void recursiveDoubling(Peers peers, ByteBuffer send, ByteBuffer recv, Reduction op) {
        int n = send.remaining();
        Bytes.copy(send, recv);
        ByteBuffer tmp = Bytes.scratch(n);
        int rem = peers.size() - Bytes.floorPowerOfTwo(peers.size());
        int newRank = fold(peers, recv, tmp, op, rem);
        if (newRank >= 0) {
            ByteBuffer acc = recv;
            int pof2 = peers.size() - rem;
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int partner = RecursiveDoublingAllgather.memberOf(newRank ^ mask, rem);
                peers.exchange(partner, acc, partner, tmp);
                if (op.isCommutative() || partner < peers.me()) {
                    op.apply(tmp, acc);
                } else {
                    op.apply(acc, tmp);
                    ByteBuffer t = acc;
                    acc = tmp;
                    tmp = t;
                }
            }
            if (acc != recv) {
                Bytes.copy(acc, recv);
            }
        }
        unfold(peers, recv, rem);
    }

    /**
     * Rabenseifner's algorithm for long vectors and commutative operations: a reduce-scatter by recursive
     * halving (each member ends with 1/P of the result) then an allgather by recursive doubling, moving
     * about 2·n bytes per member instead of log2(P)·n.
     */
    static void rabenseifner(Peers peers, ByteBuffer send, ByteBuffer recv, Reduction op) {
        int n = send.remaining();
        ByteBuffer tmp = Bytes.scratch(n);
        int pof2 = Bytes.floorPowerOfTwo(peers.size());
        int rem = peers.size() - pof2;
        // With no fold, the first halving step sends its half straight from send and copies only the half it
        // keeps, while the exchange is in flight: the half sent away is filled again by the allgather.
        boolean fromSend = rem == 0 && pof2 > 1;
        if (!fromSend) {
            Bytes.copy(send, recv);
        }
        int newRank = fold(peers, recv, tmp, op, rem);
        if (newRank >= 0) {
            int[] start = Bytes.split(n, pof2, op.itemBytes());
            // reduce-scatter: halve the range of chunks held at every step
            int sendIdx = 0;
            int recvIdx = 0;
            int lastIdx = pof2;
            int mask = 1;
            while (mask < pof2) {
                int partnerRank = newRank ^ mask;
                int partner = RecursiveDoublingAllgather.memberOf(partnerRank, rem);
                int half = pof2 / (mask * 2);
                int sendFrom;
                int sendTo;
                int recvFrom;
                int recvTo;
                if (newRank < partnerRank) {
                    sendIdx = recvIdx + half;
                    sendFrom = sendIdx;
                    sendTo = lastIdx;
                    recvFrom = recvIdx;
                    recvTo = sendIdx;
                } else {
                    recvIdx = sendIdx + half;
                    sendFrom = sendIdx;
                    sendTo = recvIdx;
                    recvFrom = recvIdx;
                    recvTo = lastIdx;
                }
                ByteBuffer arrived = Bytes.range(tmp, start[recvFrom], start[recvTo]);
                ByteBuffer mine = Bytes.range(recv, start[recvFrom], start[recvTo]);
                boolean first = fromSend && mask == 1;
                peers.exchangeCopying(partner, Bytes.range(first ? send : recv, start[sendFrom], start[sendTo]),
                        partner, arrived, first ? Bytes.range(send, start[recvFrom], start[recvTo]) : null, mine);
                op.apply(arrived, mine);
                sendIdx = recvIdx;
                mask <<= 1;
                if (mask < pof2) {
                    lastIdx = recvIdx + pof2 / mask;
                }
            }
            // allgather: double the range back
            mask >>= 1;
            while (mask > 0) {
                int partnerRank = newRank ^ mask;
                int partner = RecursiveDoublingAllgather.memberOf(partnerRank, rem);
                int half = pof2 / (mask * 2);
                int sendFrom;
                int sendTo;
                int recvFrom;
                int recvTo;
                if (newRank < partnerRank) {
                    if (mask != pof2 / 2) {
                        lastIdx = lastIdx + half;
                    }
                    recvIdx = sendIdx + half;
                    sendFrom = sendIdx;
                    sendTo = recvIdx;
                    recvFrom = recvIdx;
                    recvTo = lastIdx;
                } else {
                    recvIdx = sendIdx - half;
                    sendFrom = sendIdx;
                    sendTo = lastIdx;
                    recvFrom = recvIdx;
                    recvTo = sendIdx;
                }
                peers.exchange(partner, Bytes.range(recv, start[sendFrom], start[sendTo]),
                        partner, Bytes.range(recv, start[recvFrom], start[recvTo]));
                if (newRank > partnerRank) {
                    sendIdx = recvIdx;
                }
                mask >>= 1;
            }
        }
        unfold(peers, recv, rem);
    }

    /**
     * Ring allreduce for long vectors and commutative operations: a ring reduce-scatter of P chunks
     * (P − 1 steps, each member adds the chunk arriving from its left to its own) then a ring allgather.
     * Bandwidth-optimal for any P, with no folding; P − 1 latencies per phase.
     */
    static void ring(Peers peers, ByteBuffer send, ByteBuffer recv, Reduction op) {
        int p = peers.size();
        int me = peers.me();
        Bytes.copy(send, recv);
        int[] start = Bytes.split(send.remaining(), p, op.itemBytes());
        ByteBuffer[] chunks = RingAllgather.blocks(recv, start);
        ByteBuffer tmp = Bytes.scratch(start[1] - start[0] + op.itemBytes());
        int right = (me + 1) % p;
        int left = (me - 1 + p) % p;
        for (int step = 0; step < p - 1; step++) {
            int out = (me - step + p) % p;
            int in = (me - step - 1 + p) % p;
            ByteBuffer arrived = Bytes.range(tmp, 0, chunks[in].remaining());
            peers.exchange(right, chunks[out], left, arrived);
            op.apply(arrived, chunks[in]);
        }
        // member me now holds the full result of chunk me + 1
        for (int step = 0; step < p - 1; step++) {
            int out = (me + 1 - step + p) % p;
            int in = (me - step + p) % p;
            peers.exchange(right, chunks[out], left, chunks[in]);
        }
    }

    /** The pairing step for P not a power of two; returns the caller's rank among the 2^k, or −1. */
    private static int fold(Peers peers, ByteBuffer acc, ByteBuffer tmp, Reduction op, int rem) {
        int me = peers.me();
        if (me >= 2 * rem) {
            return me - rem;
        }
        if (me % 2 == 0) {
            peers.send(me + 1, acc);
            return -1;
        }
        peers.receive(me - 1, tmp);
        op.apply(tmp, acc);
        return me / 2;
    }

    private static void unfold(Peers peers, ByteBuffer acc, int rem) {
        int me = peers.me();
        if (me < 2 * rem) {
            if (me % 2 == 0) {
                peers.receive(me + 1, acc);
            } else {
                peers.send(me - 1, acc);
            }
        }
    }
}
