package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.config.AddressExchangeMode;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;

/**
 * Only the node roots put their cards (N puts); after the fence the C ranks of each node share the gets of the
 * other N−1 roots' cards into the node table (N(N−1) gets in the job) while this node's own cards, its root's
 * among them, are already in it (written during the fence, no PMI): on one node no rank gets anything. After a
 * node barrier each root knows the other roots' addresses, and the roots run
 * an allgather over the transport <em>in place</em> on the table ({@link CardTableAllgather}); a last node
 * barrier hands the full table to every local rank (on one node the first barrier does: there is no allgather).
 * PMI carries O(N) data; the rest moves over the fabric.
 */
public final class RootsAllgatherExchange implements AddressExchange {
    public static final String NAME = AddressExchangeMode.ROOTS.settingValue();

    @Override
    public String name() {
        return NAME;
    }

    /** The node roots of a job on several nodes run the ring. */
    @Override
    public boolean messagesPeers(NodeMap map, int rank) {
        return CardTableAllgather.participates(map, rank);
    }

    @Override
    public void start(ExchangeContext c) {
        if (c.nodeMap().isRoot(c.rank())) {
            c.publishCard();
        }
        c.startFence(c.localShare(c.nodeMap().nodeCount() - 1));
    }

    /**
     * The node whose root's card is the {@code i}-th of the N−1 a node shares among its ranks: every node but
     * {@code ownNode}, in order.
     */
    public static int fetchedNode(int i, int ownNode) {
        return i < ownNode ? i : i + 1;
    }

    @Override
    public void finish(ExchangeContext c) {
        NodeMap map = c.nodeMap();
        int rank = c.rank();
        int node = map.nodeOf(rank);
        c.fence();
        NodeSegment segment = c.segment();
        int nodes = map.nodeCount();
        int end = ExchangeContext.shareEnd(map.localRank(rank), map.localSize(node), nodes - 1);
        for (int i = ExchangeContext.shareStart(map.localRank(rank), map.localSize(node), nodes - 1); i < end; i++) {
            int peerRoot = map.nodeRoot(fetchedNode(i, node));
            c.storeNodeRootCard(peerRoot, c.fetchCard(peerRoot));
        }
        segment.barrier(); // every local card is in the table, the root's among them
        if (nodes == 1) {
            return; // no allgather: the table is full
        }
        if (messagesPeers(map, rank)) {
            for (int k = 0; k < nodes; k++) {
                if (k != node) {
                    c.peers().addPeer(map.nodeRoot(k), segment.card(map.nodeRoot(k)));
                }
            }
            c.allgatherNodeTables();
        }
        segment.barrier();
    }
}
