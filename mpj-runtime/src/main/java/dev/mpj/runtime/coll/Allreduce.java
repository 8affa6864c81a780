package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;

import java.nio.ByteBuffer;

/**
 * The three allreduce algorithms. All leave the result in {@code recv}, which they also use as the
 * accumulator; each byte of {@code send} is read before the same byte of {@code recv} is written (so the two may be
 * one buffer), and {@code send} itself is never written.
 *
 * <p>For P not a power of two, recursive doubling and Rabenseifner fold first, as MPICH does: of the first
 * 2·r members (r = P − 2^⌊log2 P⌋) each even one sends its vector to the odd one above, which combines them
 * (lower rank first) and stands for both; the 2^⌊log2 P⌋ remaining members run the power-of-two
 * algorithm; then each odd one of those pairs sends the result down to its even partner.
 *
 * <p>Rabenseifner's halvings and the ring's reduce-scatter combine the partner's data as it arrives
 * ({@link FoldOnArrival}), where the transport holds it, instead of receiving it into scratch and combining after.
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
     *
     * <p>For P a power of two the first halving sends straight from {@code send} and combines the half it keeps
     * from {@code send} into {@code recv}: the other half of {@code recv} is written by the allgather, so copying
     * the whole vector there first would be a pass over it for nothing.
     */
    static void rabenseifner(Peers peers, ByteBuffer send, ByteBuffer recv, Reduction op) {
        int n = send.remaining();
        ByteBuffer tmp = Bytes.scratch(n);
        int pof2 = Bytes.floorPowerOfTwo(peers.size());
        int rem = peers.size() - pof2;
        // until the first halving, this member's own vector: send, or recv once the fold has combined into it
        ByteBuffer own = send;
        if (rem > 0) {
            Bytes.copy(send, recv);
            own = recv;
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
                ByteBuffer right = own != recv ? Bytes.range(own, start[recvFrom], start[recvTo]) : null;
                peers.exchangeFolding(partner, Bytes.range(own, start[sendFrom], start[sendTo]), partner,
                        new FoldOnArrival(op, arrived, right, mine));
                own = recv;
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
        int[] start = Bytes.split(send.remaining(), p, op.itemBytes());
        ByteBuffer[] chunks = RingAllgather.blocks(recv, start);
        ByteBuffer[] own = RingAllgather.blocks(send, start);
        ByteBuffer tmp = Bytes.scratch(start[1] - start[0] + op.itemBytes());
        int right = (me + 1) % p;
        int left = (me - 1 + p) % p;
        // every chunk but this member's own is combined once, straight from send into recv; its own is sent
        // from send first and comes back whole in the allgather, so send is never copied into recv
        for (int step = 0; step < p - 1; step++) {
            int out = (me - step + p) % p;
            int in = (me - step - 1 + p) % p;
            ByteBuffer arrived = Bytes.range(tmp, 0, chunks[in].remaining());
            peers.exchangeFolding(right, step == 0 ? own[out] : chunks[out], left,
                    new FoldOnArrival(op, arrived, own[in], chunks[in]));
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
