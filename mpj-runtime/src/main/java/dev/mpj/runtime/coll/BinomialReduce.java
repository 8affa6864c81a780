package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;

import java.nio.ByteBuffer;

/**
 * Binomial-tree reduce: member v combines the partial results of its children v + 2^k into its own and
 * passes the result to its parent. Member v's partial result covers the contiguous members
 * [v, v + lowbit(v)), so with the tree numbered by rank the combination is in rank order: a
 * non-commutative operation reduces to rank 0, which then sends the result to the root. A commutative one
 * roots the tree at the root itself.
 */
final class BinomialReduce {
    private BinomialReduce() {
    }

    /** {@code peers} numbered by rank; {@code recv} is written at the root only. */
    static void run(Peers peers, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        rounds(new Schedule(tree(peers, op, root)), send, recv, op, root).run();
    }

    /** The members as the tree numbers them: from the root for a commutative {@code op}, else by rank. */
    static Peers tree(Peers byRank, Reduction op, int root) {
        return op.isCommutative() ? byRank.rootedAt(root) : byRank;
    }

    /** Appends the reduce's rounds to {@code s}, whose members are numbered as {@link #tree} says. */
    static Schedule rounds(Schedule s, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        boolean commutative = op.isCommutative();
        int p = s.peers().size();
        int v = s.peers().me();
        int n = send.remaining();
        ByteBuffer acc = Bytes.allocate(n);
        Bytes.copy(send, acc);
        // a member has children exactly when v + 1 is one
        ByteBuffer tmp = (v & 1) == 0 && v + 1 < p ? Bytes.allocate(n) : null;
        int mask = 1;
        for (; mask < p && (v & mask) == 0; mask <<= 1) {
            int child = v | mask;
            if (child < p) {
                s.then(new Schedule.Receive(child, tmp));
                s.then(new Combine(op, tmp, acc));
            }
        }
        if (mask < p) {
            int parent = v - mask;
            s.then(new Schedule.Send(parent, acc));
        } else if (commutative || root == 0) {
            s.then(new Schedule.Copy(acc, recv));
        } else {
            s.then(new Schedule.Send(root, acc));
        }
        if (!commutative && root != 0 && v == root) {
            s.then(new Schedule.Receive(0, recv));
        }
        return s;
    }

    /** The round that folds a child's partial result into {@code acc}, which covers the lower ranks, in rank order. */
    private static final class Combine implements Schedule.Round {
        private final Reduction op;
        private final ByteBuffer child;
        private final ByteBuffer acc;

        Combine(Reduction op, ByteBuffer child, ByteBuffer acc) {
            this.op = op;
            this.child = child;
            this.acc = acc;
        }

        @Override
        public void start(Schedule s) {
            if (op.isCommutative()) {
                op.apply(child, acc);
            } else {
                // child = acc op child, which becomes the partial result
                op.apply(acc, child);
                Bytes.copy(child, acc);
            }
        }
    }
}
