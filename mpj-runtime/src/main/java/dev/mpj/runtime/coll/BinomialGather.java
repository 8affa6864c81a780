package dev.mpj.runtime.coll;

import java.nio.ByteBuffer;

/**
 * Binomial-tree gather: member v (numbered from the root) collects the blocks of its subtree
 * [v, v + lowbit(v)) from its children, then passes them to its parent in one message. The root's
 * buffer is in root-relative order, so unless the root is rank 0 it is rotated into rank order at the end.
 */
final class BinomialGather {
    private BinomialGather() {
    }

    /** {@code peers} rooted at the root; {@code recv} (size × block) is used at the root only. */
    static void run(Peers peers, ByteBuffer send, ByteBuffer recv) {
        int p = peers.size();
        int v = peers.me();
        int block = send.remaining();
        int held = subtree(v, p);
        boolean direct = v == 0 && peers.rankOf(0) == 0;
        ByteBuffer tmp = direct ? recv : Bytes.allocate(held * block);
        Bytes.copy(send, tmp);
        for (int mask = 1; mask < p; mask <<= 1) {
            if ((v & mask) == 0) {
                int child = v | mask;
                if (child < p) {
                    int blocks = Math.min(mask, p - child);
                    peers.receive(child, Bytes.range(tmp, mask * block, (mask + blocks) * block));
                }
            } else {
                peers.send(v - mask, Bytes.range(tmp, 0, held * block));
                return;
            }
        }
        if (!direct) {
            // tmp holds the blocks of ranks root, root + 1, ..., P − 1, 0, ..., root − 1
            int root = peers.rankOf(0);
            Bytes.copy(Bytes.range(tmp, 0, (p - root) * block), recv, root * block);
            Bytes.copy(Bytes.range(tmp, (p - root) * block, p * block), recv, 0);
        }
    }

    /** How many members the subtree of v holds: lowbit(v) (all P for the root), cut at P. */
    static int subtree(int v, int p) {
        return v == 0 ? p : Math.min(Integer.lowestOneBit(v), p - v);
    }
}
