package dev.mpj.runtime.node;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.wire.ProcessMapping;
import dev.mpj.runtime.pmi.wire.ProcessMappingParser;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Which ranks of a job share a node. Nodes are numbered 0..{@link #nodeCount()}-1 in the order of their lowest
 * rank, so node 0 holds rank 0 and node roots increase with the node number; nodes of the process manager that
 * hold no rank are left out. The <em>node root</em> of a node is its lowest rank; a rank's <em>local rank</em>
 * is its index among the ranks of its node, in ascending rank order. Immutable.
 */
public final class NodeMap {
    private final int[] nodeOf;
    private final int[] localRank;
    private final int[][] ranksOn;

    private NodeMap(int[] nodeIds) {
        int size = nodeIds.length;
        if (size < 1) {
            throw new IllegalArgumentException("a job has at least one rank");
        }
        nodeOf = new int[size];
        localRank = new int[size];
        Map<Integer, Integer> dense = new HashMap<>();
        int[] counts = new int[size];
        for (int rank = 0; rank < size; rank++) {
            Integer node = dense.get(nodeIds[rank]);
            if (node == null) {
                node = dense.size();
                dense.put(nodeIds[rank], node);
            }
            nodeOf[rank] = node;
            localRank[rank] = counts[node]++;
        }
        ranksOn = new int[dense.size()][];
        for (int node = 0; node < ranksOn.length; node++) {
            ranksOn[node] = new int[counts[node]];
        }
        for (int rank = 0; rank < size; rank++) {
            ranksOn[nodeOf[rank]][localRank[rank]] = rank;
        }
    }

    /**
     * The node map of a job as the process manager describes it in {@code PMI_process_mapping} (PMI.md §4).
     *
     * @throws IllegalArgumentException when the mapping is malformed or places no rank
     */
    public static NodeMap fromProcessMapping(String mapping, int size) {
        return new NodeMap(ProcessMappingParser.nodeIds(mapping, size));
    }

    /**
     * {@code size} ranks split by blocks of consecutive ranks over {@code nodes} pretend nodes, exactly as
     * {@code mpjrun --fake-nodes} and Hydra's {@code -hosts a1:p,a2:p,…} place them: ceil(size / nodes) ranks per
     * node, the last node holding the rest. More nodes than ranks give one rank per node.
     */
    public static NodeMap blocks(int size, int nodes) {
        if (nodes < 1) {
            throw new IllegalArgumentException("a job runs on at least one node, not " + nodes);
        }
        // One rule for the launcher and the ranks: decode what mpjrun serves.
        return fromProcessMapping(ProcessMapping.blocks(size, Math.min(nodes, size)).pmiValue(), size);
    }

    /** The node map of ranks labelled with any node identifiers (equal labels, same node). */
    public static NodeMap fromNodeIds(int[] nodeIds) {
        return new NodeMap(nodeIds.clone());
    }

    /**
     * This job's node map: {@link Settings#fakeNodes() fake nodes} when set, else {@code PMI_process_mapping},
     * else the node of every rank when the process manager gives it ({@link PmiClient#nodeIds()}, PMIx), else
     * an exchange of host identities, which is collective.
     *
     * @throws IllegalArgumentException when the process manager's mapping is malformed
     */
    public static NodeMap discover(PmiClient pmi, Settings settings) {
        if (settings.fakeNodes() > 0) {
            return blocks(pmi.size(), settings.fakeNodes());
        }
        String mapping = pmi.processMapping();
        if (mapping != null && !mapping.isBlank()) {
            return fromProcessMapping(mapping, pmi.size());
        }
        int[] nodeIds = pmi.nodeIds();
        if (nodeIds != null) {
            return fromNodeIds(nodeIds);
        }
        return HostIdentityExchange.nodeMap(pmi, HostIdentityExchange.localHostIdentity());
    }

    /** Ranks in the job. */
    public int size() {
        return nodeOf.length;
    }

    public int nodeCount() {
        return ranksOn.length;
    }

    public int nodeOf(int rank) {
        return nodeOf[checkRank(rank)];
    }

    /** The rank's index among the ranks of its node. */
    public int localRank(int rank) {
        return localRank[checkRank(rank)];
    }

    /** Whether every one of {@code ranks} lives on {@code node}. */
    public boolean allOn(int[] ranks, int node) {
        for (int r : ranks) {
            if (nodeOf(r) != node) {
                return false;
            }
        }
        return true;
    }

    /** How many ranks the node holds. */
    public int localSize(int node) {
        return ranksOn[checkNode(node)].length;
    }

    /** The ranks on the node, ascending (a fresh copy). */
    public int[] ranksOn(int node) {
        return ranksOn[checkNode(node)].clone();
    }

    /** The rank on the node whose local rank is {@code localRank}. */
    public int rankOn(int node, int localRank) {
        int[] ranks = ranksOn[checkNode(node)];
        if (localRank < 0 || localRank >= ranks.length) {
            throw new IndexOutOfBoundsException("local rank " + localRank + " of a node of " + ranks.length);
        }
        return ranks[localRank];
    }

    /** The lowest rank on the node. */
    public int nodeRoot(int node) {
        return ranksOn[checkNode(node)][0];
    }

    /** The root of every node, by node number (ascending). */
    public int[] nodeRoots() {
        int[] roots = new int[ranksOn.length];
        for (int node = 0; node < roots.length; node++) {
            roots[node] = ranksOn[node][0];
        }
        return roots;
    }

    /** Whether the rank is the lowest on its node. */
    public boolean isRoot(int rank) {
        return localRank(rank) == 0;
    }

    private int checkRank(int rank) {
        if (rank < 0 || rank >= nodeOf.length) {
            throw new IndexOutOfBoundsException("rank " + rank + " of a job of " + nodeOf.length);
        }
        return rank;
    }

    private int checkNode(int node) {
        if (node < 0 || node >= ranksOn.length) {
            throw new IndexOutOfBoundsException("node " + node + " of " + ranksOn.length);
        }
        return node;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeMap other && Arrays.equals(nodeOf, other.nodeOf);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(nodeOf);
    }

    /** The ranks of each node, e.g. {@code [[0, 1], [2, 3]]}. */
    @Override
    public String toString() {
        return Arrays.deepToString(ranksOn);
    }
}
