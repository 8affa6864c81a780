package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.runtime.node.NodeMap;

import java.util.Arrays;

/**
 * How one communicator's members fall on nodes, as the node-aware collectives see it. The communicator's nodes
 * are numbered 0..{@link #nodeCount()}−1 in the order of their lowest communicator rank, and each node's members
 * are listed in ascending communicator rank. The layout is <em>contiguous</em> when every node holds one range
 * of consecutive ranks: then node k's members come before node k+1's, so combining per-node partial results in
 * node order is combining in rank order (what a non-commutative operation needs). Immutable.
 */
final class NodeLayout {
    private final int[] nodeOf;
    private final int[][] members;
    private final int node;
    private final int localIndex;
    private final boolean contiguous;

    private NodeLayout(int[] nodeOf, int[][] members, int me) {
        this.nodeOf = nodeOf;
        this.members = members;
        this.node = nodeOf[me];
        this.localIndex = Arrays.binarySearch(members[node], me);
        boolean ranges = true;
        for (int rank = 1; rank < nodeOf.length; rank++) {
            ranges &= nodeOf[rank] == nodeOf[rank - 1] || nodeOf[rank] == nodeOf[rank - 1] + 1;
        }
        this.contiguous = ranges;
    }

    /** The layout of {@code comm}'s members on the nodes of {@code map}, for the calling member. */
    static NodeLayout of(CommSpec comm, NodeMap map) {
        int[] world = comm.worldRanks();
        int size = world.length;
        int[] dense = new int[map.nodeCount()];
        Arrays.fill(dense, -1);
        int[] nodeOf = new int[size];
        int[] counts = new int[size];
        int nodes = 0;
        for (int rank = 0; rank < size; rank++) {
            int jobNode = map.nodeOf(world[rank]);
            if (dense[jobNode] < 0) {
                dense[jobNode] = nodes++;
            }
            nodeOf[rank] = dense[jobNode];
            counts[nodeOf[rank]]++;
        }
        int[][] members = new int[nodes][];
        for (int k = 0; k < nodes; k++) {
            members[k] = new int[counts[k]];
            counts[k] = 0;
        }
        for (int rank = 0; rank < size; rank++) {
            members[nodeOf[rank]][counts[nodeOf[rank]]++] = rank;
        }
        return new NodeLayout(nodeOf, members, comm.rank());
    }

    int size() {
        return nodeOf.length;
    }

    int nodeCount() {
        return members.length;
    }

    /**
     * Whether a node-aware algorithm has anything to gain: more than one node, and more than one member on some
     * node (otherwise either the intra-node or the inter-node step is everything and the other is empty).
     */
    boolean spansSharedNodes() {
        return members.length > 1 && members.length < nodeOf.length;
    }

    /** Whether every node holds one range of consecutive ranks, in node order. */
    boolean contiguous() {
        return contiguous;
    }

    /** The caller's node. */
    int node() {
        return node;
    }

    int nodeOf(int rank) {
        return nodeOf[rank];
    }

    /** The ranks on the caller's node, ascending. */
    int[] localRanks() {
        return members[node];
    }

    /** The caller's index in {@link #localRanks()}. */
    int localIndex() {
        return localIndex;
    }

    /** The ranks on node {@code k}, ascending (shared: not to be modified). */
    int[] ranksOn(int k) {
        return members[k];
    }

    /**
     * One leader per node, in node order, to take part in the inter-node step: {@code root} for its own node,
     * the lowest rank for every other.
     */
    int[] leaders(int root) {
        int[] leaders = new int[members.length];
        for (int k = 0; k < leaders.length; k++) {
            leaders[k] = members[k][0];
        }
        leaders[nodeOf[root]] = root;
        return leaders;
    }

    /** The index in {@link #localRanks()} of the caller's node's leader under {@link #leaders(int) leaders(root)}. */
    int localLeaderIndex(int root) {
        return nodeOf[root] == node ? Arrays.binarySearch(members[node], root) : 0;
    }
}
