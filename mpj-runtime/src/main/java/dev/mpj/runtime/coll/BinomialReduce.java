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
        boolean commutative = op.isCommutative();
        Peers tree = commutative ? peers.rootedAt(root) : peers;
        int p = tree.size();
        int v = tree.me();
        int n = send.remaining();
        ByteBuffer acc = Bytes.allocate(n);
        Bytes.copy(send, acc);
        ByteBuffer tmp = null;
        for (int mask = 1; mask < p; mask <<= 1) {
            if ((v & mask) != 0) {
                tree.send(v - mask, acc);
                break;
            }
            int child = v | mask;
            if (child < p) {
                if (tmp == null) {
                    tmp = Bytes.allocate(n);
                }
                tree.receive(child, tmp);
                if (commutative) {
                    op.apply(tmp, acc);
                } else {
                    // acc covers the lower ranks: tmp = acc op tmp, then tmp is the partial result
                    op.apply(acc, tmp);
                    ByteBuffer t = acc;
                    acc = tmp;
                    tmp = t;
                }
            }
        }
        int me = peers.me();
        if (commutative || root == 0) {
            if (v == 0) {
                Bytes.copy(acc, recv);
            }
        } else if (me == 0) {
            peers.send(root, acc);
        } else if (me == root) {
            peers.receive(0, recv);
        }
    }
}
