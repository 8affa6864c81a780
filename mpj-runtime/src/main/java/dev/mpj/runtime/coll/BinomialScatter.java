package dev.mpj.runtime.coll;

import dev.mpj.api.Operation;

import java.nio.ByteBuffer;

/**
 * Binomial-tree scatter, the gather run backwards: member v receives the blocks of its subtree from its
 * parent and forwards each child's part. A root other than rank 0 first rotates its buffer into
 * root-relative order.
 */
final class BinomialScatter {
    private BinomialScatter() {
    }

    /**
     * {@code peers} rooted at the root; {@code send} (size × block) is read at the root only;
     * {@code recv} may be null at the root.
     */
    static void run(Peers peers, ByteBuffer send, ByteBuffer recv, int block) {
        int p = peers.size();
        int v = peers.me();
        int held = BinomialGather.subtree(v, p);
        ByteBuffer tmp;
        int mask = 1;
        if (v == 0) {
            int root = peers.rankOf(0);
            if (root == 0) {
                tmp = send;
            } else {
                tmp = Bytes.allocate(p * block);
                Bytes.copy(Bytes.range(send, root * block, p * block), tmp, 0);
                Bytes.copy(Bytes.range(send, 0, root * block), tmp, (p - root) * block);
            }
            while (mask < p) {
                mask <<= 1;
            }
        } else {
            tmp = Bytes.allocate(held * block);
            mask = Integer.lowestOneBit(v);
            peers.receive(v - mask, tmp);
        }
        Operation[] sends = new Operation[Integer.numberOfTrailingZeros(mask) + 1];
        int n = 0;
        for (mask >>= 1; mask > 0; mask >>= 1) {
            int child = v + mask;
            if (child < p) {
                int blocks = Math.min(mask, p - child);
                sends[n++] = peers.startSend(child, Bytes.range(tmp, mask * block, (mask + blocks) * block));
            }
        }
        peers.waitAll(sends);
        if (recv != null) {
            Bytes.copy(Bytes.range(tmp, 0, block), recv);
        }
    }
}
