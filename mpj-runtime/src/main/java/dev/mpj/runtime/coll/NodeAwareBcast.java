package dev.mpj.runtime.coll;

import java.nio.ByteBuffer;

/**
 * Node-aware broadcast: the root sends to one leader per node (the lowest rank of every other node) by the
 * broadcast the tuning picks for the number of nodes, then each leader broadcasts within its node. The message
 * crosses between nodes once per node instead of once per remote rank, and the rest of the tree stays in
 * shared memory. Any layout, any root.
 */
final class NodeAwareBcast {
    private NodeAwareBcast() {
    }

    /** {@code all} numbered by rank. */
    static void run(FlatCollectives flat, NodeLayout layout, Peers all, ByteBuffer data, int root) {
        int[] leaders = layout.leaders(root);
        if (leaders[layout.node()] == all.me()) {
            flat.bcast(all.among(leaders, layout.node()).rootedAt(layout.nodeOf(root)), data);
        }
        Peers local = all.among(layout.localRanks(), layout.localIndex());
        flat.bcast(local.rootedAt(layout.localLeaderIndex(root)), data);
    }
}
