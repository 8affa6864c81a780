package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;
import dev.mpj.api.ReductionOperands;

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
            halveThenDouble(peers, new BufferRanges(op, own, recv, tmp), n, newRank, rem, op.itemBytes());
        }
        unfold(peers, recv, rem);
    }

    /**
     * {@link #rabenseifner(Peers, ByteBuffer, ByteBuffer, Reduction)} over the caller's operand and result where it
     * holds them, for P a power of two: only the ranges sent are packed, and the arriving ones are combined or landed
     * straight in the result.
     */
    static void rabenseifner(Peers peers, ReductionOperands operands, Reduction op) {
        if (!Bytes.isPowerOfTwo(peers.size())) {
            throw new IllegalArgumentException("over operands in place, Rabenseifner's allreduce needs P a power of two");
        }
        int n = operands.bytes();
        halveThenDouble(peers, new OperandRanges(operands, op.itemBytes(), Bytes.scratch(n)), n, peers.me(), 0,
                op.itemBytes());
    }

    /**
     * The power-of-two part of Rabenseifner's algorithm, among the 2^k members that remain after the fold: a
     * reduce-scatter by recursive halving, then an allgather by recursive doubling.
     */
    private static void halveThenDouble(Peers peers, VectorRanges v, int n, int newRank, int rem, int itemBytes) {
        int pof2 = peers.size() - rem;
        int[] start = Bytes.split(n, pof2, itemBytes);
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
            boolean first = mask == 1;
            peers.exchangeFolding(partner, v.toSend(first, start[sendFrom], start[sendTo]), partner,
                    v.fold(first, start[recvFrom], start[recvTo]));
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
            v.exchangeResult(peers, partner, start[sendFrom], start[sendTo], start[recvFrom], start[recvTo]);
            if (newRank > partnerRank) {
                sendIdx = recvIdx;
            }
            mask >>= 1;
        }
    }

    /**
     * A member's operand and result as Rabenseifner's steps address them, in byte ranges of the vector: what a step
     * sends, how the arriving range of a halving is combined, and how a doubling's range lands.
     */
    private interface VectorRanges {
        /** The bytes to send of a halving: of the operand at the first, of the result at the others. */
        ByteBuffer toSend(boolean first, int from, int to);

        /** Combines a halving's arriving range with the operand (at the first) or the result into the result. */
        OnArrival fold(boolean first, int from, int to);

        /** A doubling's exchange: sends the result's range {@code sendFrom..sendTo}, lands the partner's. */
        void exchangeResult(Peers peers, int partner, int sendFrom, int sendTo, int recvFrom, int recvTo);
    }

    /**
     * Packed vectors: {@code own} (the send buffer, or {@code recv} once folded into) and {@code recv}. A class, not a
     * record: a record's methods link a bootstrap method in the first call.
     */
    private static final class BufferRanges implements VectorRanges {
        private final Reduction op;
        private final ByteBuffer own;
        private final ByteBuffer recv;
        private final ByteBuffer tmp;

        BufferRanges(Reduction op, ByteBuffer own, ByteBuffer recv, ByteBuffer tmp) {
            this.op = op;
            this.own = own;
            this.recv = recv;
            this.tmp = tmp;
        }

        @Override
        public ByteBuffer toSend(boolean first, int from, int to) {
            return Bytes.range(first ? own : recv, from, to);
        }

        @Override
        public OnArrival fold(boolean first, int from, int to) {
            ByteBuffer right = first && own != recv ? Bytes.range(own, from, to) : null;
            return new FoldOnArrival(op, Bytes.range(tmp, from, to), right, Bytes.range(recv, from, to));
        }

        @Override
        public void exchangeResult(Peers peers, int partner, int sendFrom, int sendTo, int recvFrom, int recvTo) {
            peers.exchange(partner, Bytes.range(recv, sendFrom, sendTo), partner, Bytes.range(recv, recvFrom, recvTo));
        }
    }

    /**
     * The caller's operand and result in place ({@link ReductionOperands}): a range sent is packed into the thread's
     * send scratch, and arriving ranges go straight into the result, {@code tmp} holding only pieces that cannot.
     */
    private static final class OperandRanges implements VectorRanges {
        private final ReductionOperands operands;
        private final int itemBytes;
        private final ByteBuffer tmp;

        OperandRanges(ReductionOperands operands, int itemBytes, ByteBuffer tmp) {
            this.operands = operands;
            this.itemBytes = itemBytes;
            this.tmp = tmp;
        }

        @Override
        public ByteBuffer toSend(boolean first, int from, int to) {
            ByteBuffer data = Bytes.sendScratch(to - from);
            if (first) {
                operands.packOperand(from, to, data, 0);
            } else {
                operands.packResult(from, to, data, 0);
            }
            return data;
        }

        @Override
        public OnArrival fold(boolean first, int from, int to) {
            return new OperandsOnArrival(operands, itemBytes, from, first ? OperandsOnArrival.Use.COMBINE_WITH_OPERAND
                    : OperandsOnArrival.Use.COMBINE_WITH_RESULT, Bytes.range(tmp, from, to));
        }

        @Override
        public void exchangeResult(Peers peers, int partner, int sendFrom, int sendTo, int recvFrom, int recvTo) {
            peers.exchangeFolding(partner, toSend(false, sendFrom, sendTo), partner, new OperandsOnArrival(operands,
                    itemBytes, recvFrom, OperandsOnArrival.Use.LAND, Bytes.range(tmp, recvFrom, recvTo)));
        }
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
