package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;

import java.nio.ByteBuffer;

/**
 * Reduce-scatter as a binomial reduce of the whole vector to rank 0 followed by a scatter of its blocks.
 * Correct for any operation and any block sizes; the reduce keeps rank order for non-commutative ones.
 */
final class ReduceScatter {
    private ReduceScatter() {
    }

    static void run(Peers peers, ByteBuffer send, ByteBuffer recv, int[] blockBytes, Reduction op) {
        int p = peers.size();
        int[] start = new int[p + 1];
        for (int i = 0; i < p; i++) {
            start[i + 1] = start[i] + blockBytes[i];
        }
        ByteBuffer whole = peers.me() == 0 ? Bytes.allocate(start[p]) : null;
        BinomialReduce.run(peers, send, whole, op, 0);
        ByteBuffer[] blocks = whole == null ? null : RingAllgather.blocks(whole, start);
        LinearV.scatterv(peers, blocks, recv, 0);
    }
}
