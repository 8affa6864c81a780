package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;

import java.nio.ByteBuffer;

/**
 * The rounds of the non-blocking collectives: the blocking algorithms' short-message choices, cut at each wait.
 * Each builder appends to a {@link Schedule} over members numbered as it says; buffers are sized here, when the
 * collective starts, so the rounds only move and combine bytes.
 */
final class Schedules {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private Schedules() {
    }

    /** Dissemination ({@link DisseminationBarrier}): round k signals member + 2^k and hears from member − 2^k. */
    static Schedule barrier(Schedule s) {
        int p = s.peers().size();
        int me = s.peers().me();
        for (int k = 1; k < p; k <<= 1) {
            int step = k;
            s.then(r -> {
                r.receive((me - step + p) % p, EMPTY);
                r.send((me + step) % p, EMPTY);
            });
        }
        return s;
    }

    /** Binomial tree ({@link BinomialBcast}) over members numbered from the root: receive, then forward. */
    static Schedule bcast(Schedule s, ByteBuffer data) {
        int p = s.peers().size();
        int v = s.peers().me();
        int mask = 1;
        while (mask < p && (v & mask) == 0) {
            mask <<= 1;
        }
        if (mask < p) {
            int parent = v - mask;
            s.then(r -> r.receive(parent, data));
        }
        int below = mask >> 1;
        if (below > 0 && v + 1 < p) {
            s.then(r -> {
                for (int m = below; m > 0; m >>= 1) {
                    if (v + m < p) {
                        r.send(v + m, data);
                    }
                }
            });
        }
        return s;
    }

    /**
     * Binomial-tree reduce ({@link BinomialReduce}); the schedule's members must be numbered from the root for a
     * commutative {@code op}, else by rank, rank 0 then sending the result to the root. {@code recv} is written at
     * the root only.
     */
    static Schedule reduce(Schedule s, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        boolean commutative = op.isCommutative();
        int p = s.peers().size();
        int v = s.peers().me();
        int n = send.remaining();
        ByteBuffer acc = Bytes.allocate(n);
        Bytes.copy(send, acc);
        ByteBuffer tmp = Bytes.allocate(n);
        int mask = 1;
        for (; mask < p && (v & mask) == 0; mask <<= 1) {
            int child = v | mask;
            if (child < p) {
                s.then(r -> r.receive(child, tmp));
                s.then(r -> combine(op, tmp, acc));
            }
        }
        if (mask < p) {
            int parent = v - mask;
            s.then(r -> r.send(parent, acc));
        } else if (commutative || root == 0) {
            s.then(r -> Bytes.copy(acc, recv));
        } else {
            s.then(r -> r.send(root, acc));
        }
        if (!commutative && root != 0 && v == root) {
            s.then(r -> r.receive(0, recv));
        }
        return s;
    }

    /** Folds a child's partial result into {@code acc}, which covers the lower ranks, keeping rank order. */
    private static void combine(Reduction op, ByteBuffer child, ByteBuffer acc) {
        if (op.isCommutative()) {
            op.apply(child, acc);
        } else {
            // acc covers the lower ranks: child = acc op child, which becomes the partial result
            op.apply(acc, child);
            Bytes.copy(child, acc);
        }
    }

    /** A reduce to member 0 (members numbered by rank), then a broadcast of the result from it. */
    static Schedule allreduce(Schedule s, ByteBuffer send, ByteBuffer recv, Reduction op) {
        return bcast(reduce(s, send, recv, op, 0), recv);
    }

    /** Ring ({@link RingAllgather}): in round k every member passes on to its right the block it got in round k − 1. */
    static Schedule allgather(Schedule s, ByteBuffer send, ByteBuffer recv) {
        int p = s.peers().size();
        int v = s.peers().me();
        int block = send.remaining();
        ByteBuffer[] blocks = RingAllgather.blocks(recv, Alltoall.equalBlocks(p, block));
        Bytes.copy(send, blocks[v]);
        for (int step = 0; step < p - 1; step++) {
            ByteBuffer out = blocks[(v - step + p) % p];
            ByteBuffer in = blocks[(v - step - 1 + p) % p];
            s.then(r -> {
                r.receive((v - 1 + p) % p, in);
                r.send((v + 1) % p, out);
            });
        }
        return s;
    }

    /** One round with every receive and send posted at once (the blocking {@code scattered} alltoall). */
    static Schedule alltoall(Schedule s, ByteBuffer send, ByteBuffer recv) {
        int p = s.peers().size();
        int me = s.peers().me();
        int[] start = Alltoall.equalBlocks(p, send.remaining() / p);
        ByteBuffer[] out = RingAllgather.blocks(send, start);
        ByteBuffer[] in = RingAllgather.blocks(recv, start);
        Bytes.copy(out[me], in[me]);
        if (p > 1) {
            s.then(r -> {
                for (int i = 1; i < p; i++) {
                    r.receive((me - i + p) % p, in[(me - i + p) % p]);
                }
                for (int i = 1; i < p; i++) {
                    r.send((me + i) % p, out[(me + i) % p]);
                }
            });
        }
        return s;
    }
}
