package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;

import java.nio.ByteBuffer;

/**
 * Node-aware allreduce: each node reduces to its lowest rank, those node leaders allreduce their partial
 * results (by the algorithm the tuning picks for the number of nodes), and each leader broadcasts the result
 * within its node. Only the leaders' traffic crosses nodes. Rank order holds as in {@link NodeAwareReduce}.
 */
final class NodeAwareAllreduce {
    private NodeAwareAllreduce() {
    }

    static boolean applies(NodeLayout layout, Reduction op) {
        return NodeAwareReduce.applies(layout, op);
    }

    /** {@code all} numbered by rank; the leaders use {@code recv} as their accumulator. */
    static void run(FlatCollectives flat, NodeLayout layout, Peers all, ByteBuffer send, ByteBuffer recv,
                    Reduction op) {
        Peers local = all.among(layout.localRanks(), layout.localIndex());
        boolean leader = local.me() == 0;
        flat.reduce(local, send, leader ? recv : null, op, 0);
        if (leader) {
            // comm rank 0 leads its node, so leaders(0) is the lowest rank of every node
            flat.allreduce(all.among(layout.leaders(0), layout.node()), recv, recv, op);
        }
        flat.bcast(local, recv);
    }
}
