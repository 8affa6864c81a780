package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.config.AddressExchangeMode;
import dev.mpj.runtime.config.PmiDialect;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.PmiKvs;
import dev.mpj.runtime.pmi.RingNeighbours;
import dev.mpj.runtime.spi.ExchangeException;

/**
 * PMIX_Ring instead of a fence (paper [2] of REFERENCES): no PMI put, get or barrier. Each rank maps the node
 * segment and writes its card (no PMI), and after a node barrier every rank enters the ring with its node
 * root's card. The ring keeps a node's ranks consecutive, so the first rank of a node's run learns the root card
 * of the node before it and the last rank that of the node after it; they write those cards into the table,
 * and after a node barrier the roots run the {@code roots} allgather in place ({@link CardTableAllgather}),
 * whose ring needs exactly the next root's address. A job on one node needs no PMI at all.
 *
 * <p>The allgather's ring follows the node numbering, so the process manager's ring must visit the nodes in
 * that order: mpjrun's does, and Slurm's does up to {@code SLURM_PMIX_RING_WIDTH} + 1 nodes (16 + 1 by
 * default: its ring follows its tree of step daemons). Another order fails with a message saying so.
 */
public final class RingExchange implements AddressExchange {
    public static final String NAME = AddressExchangeMode.RING.settingValue();

    @Override
    public String name() {
        return NAME;
    }

    /** The node roots of a job on several nodes run the allgather. */
    @Override
    public boolean messagesPeers(NodeMap map, int rank) {
        return CardTableAllgather.participates(map, rank);
    }

    @Override
    public void finish(ExchangeContext c) {
        PmiClient pmi = c.pmi();
        if (!pmi.hasRing()) {
            throw new ExchangeException(Setting.ADDRESS_EXCHANGE.property() + "=" + NAME + " needs PMIX_Ring, which"
                    + " the " + pmi.dialect() + " PMI client here does not offer: run under srun --mpi=pmi2, or"
                    + " under mpjrun with " + Setting.PMI.property() + "=" + PmiDialect.PMI2.settingValue());
        }
        NodeMap map = c.nodeMap();
        int rank = c.rank();
        int node = map.nodeOf(rank);
        int nodes = map.nodeCount();
        NodeSegment segment = c.attachSegment();
        segment.barrier(); // every local card is in the table, the root's among them
        if (nodes == 1) {
            return;
        }
        int root = map.nodeRoot(node);
        String value = PmiKvs.hex(segment.card(root));
        if (value.length() > pmi.maxValueLength()) {
            throw new ExchangeException("the business card of rank " + root + " has " + value.length() / 2
                    + " bytes, too long for one PMIX_Ring value (" + pmi.maxValueLength() + " hex characters);"
                    + " use " + Setting.ADDRESS_EXCHANGE.property() + "=" + RootsAllgatherExchange.NAME);
        }
        RingNeighbours neighbours = c.ring(value);
        storeNeighbourRoot(c, neighbours.left(), (node + nodes - 1) % nodes, "left");
        storeNeighbourRoot(c, neighbours.right(), (node + 1) % nodes, "right");
        segment.barrier();
        if (rank == root) {
            int next = map.nodeRoot((node + 1) % nodes);
            c.peers().addPeer(next, segment.card(next));
            c.allgatherNodeTables();
        }
        segment.barrier();
    }

    /**
     * A ring neighbour's value is a node root's card: this node's (a neighbour of the same node, nothing to do) or
     * that of the neighbour node {@code expected}, which goes into its slot.
     */
    private static void storeNeighbourRoot(ExchangeContext c, String value, int expected, String side) {
        byte[] card = PmiKvs.unhex(value);
        int node = BusinessCard.decode(card).nodeId();
        NodeMap map = c.nodeMap();
        int own = map.nodeOf(c.rank());
        if (node == own) {
            return;
        }
        if (node != expected) {
            throw new ExchangeException("the process manager's PMIX_Ring puts node " + node + " " + side + " of node "
                    + own + ", where the allgather needs node " + expected + ": its ring does not follow the node"
                    + " order (under Slurm with more than 17 nodes, set SLURM_PMIX_RING_WIDTH to the node count)");
        }
        c.storeNodeRootCard(map.nodeRoot(node), card);
    }
}
