package dev.mpj.runtime.coll;

import java.nio.ByteBuffer;

/**
 * Node-aware barrier: the ranks of each node report to their lowest rank along a binomial tree, those node
 * leaders run a dissemination barrier among themselves, and each releases its node down the same tree. The
 * inter-node rounds drop from ⌈log2 P⌉ for every rank to ⌈log2 nodes⌉ for one rank per node.
 */
final class NodeAwareBarrier {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private NodeAwareBarrier() {
    }

    /** {@code all} numbered by rank. */
    static void run(NodeLayout layout, Peers all) {
        Peers local = all.among(layout.localRanks(), layout.localIndex());
        BinomialGather.run(local, EMPTY, EMPTY);
        if (local.me() == 0) {
            DisseminationBarrier.run(all.among(layout.leaders(0), layout.node()));
        }
        BinomialBcast.run(local, EMPTY);
    }
}
