package dev.mpj.runtime.coll;

import java.nio.ByteBuffer;

/**
 * Node-aware allgather for {@link NodeLayout#contiguous() contiguous} layouts, where each node's blocks are one
 * range of the result: each node gathers its blocks at its lowest rank (straight into that range), the node
 * leaders allgather the node ranges among themselves, and each leader broadcasts the whole result within its
 * node.
 */
final class NodeAwareAllgather {
    private NodeAwareAllgather() {
    }

    static boolean applies(NodeLayout layout) {
        return layout.contiguous();
    }

    /** {@code all} numbered by rank; {@code recv} holds size × block bytes. */
    static void run(FlatCollectives flat, NodeLayout layout, Peers all, ByteBuffer send, ByteBuffer recv) {
        int block = send.remaining();
        int[] mine = layout.localRanks();
        Peers local = all.among(mine, layout.localIndex());
        BinomialGather.run(local, send, Bytes.range(recv, mine[0] * block, (mine[0] + mine.length) * block));
        if (local.me() == 0) {
            int nodes = layout.nodeCount();
            int[] start = new int[nodes + 1];
            for (int k = 0; k < nodes; k++) {
                start[k] = layout.ranksOn(k)[0] * block;
            }
            start[nodes] = layout.size() * block;
            flat.allgather(all.among(layout.leaders(0), layout.node()), recv, start);
        }
        flat.bcast(local, Bytes.range(recv, 0, layout.size() * block));
    }
}
