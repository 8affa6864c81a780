package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;

import java.nio.ByteBuffer;

/**
 * Node-aware reduce: each node reduces to its leader (the root on the root's node, the lowest rank elsewhere),
 * then the leaders reduce their partial results to the root. Each node's partial result covers its ranks, and
 * the leaders combine them in node order, so on a {@link NodeLayout#contiguous() contiguous} layout the
 * combination is in rank order; non-commutative operations need one.
 */
final class NodeAwareReduce {
    private NodeAwareReduce() {
    }

    /** Whether the algorithm gives the right result for this layout and operation. */
    static boolean applies(NodeLayout layout, Reduction op) {
        return op.isCommutative() || layout.contiguous();
    }

    /** {@code all} numbered by rank; {@code recv} is written at the root only. */
    static void run(FlatCollectives flat, NodeLayout layout, Peers all, ByteBuffer send, ByteBuffer recv,
                    Reduction op, int root) {
        int[] leaders = layout.leaders(root);
        boolean leader = leaders[layout.node()] == all.me();
        ByteBuffer partial = leader ? Bytes.allocate(send.remaining()) : null;
        Peers local = all.among(layout.localRanks(), layout.localIndex());
        flat.reduce(local, send, partial, op, layout.localLeaderIndex(root));
        if (leader) {
            flat.reduce(all.among(leaders, layout.node()), partial, recv, op, layout.nodeOf(root));
        }
    }
}
