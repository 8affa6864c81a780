package dev.mpj.runtime.pmi.wire;

/**
 * Where the ranks of a job live: a block distribution of {@code size} ranks over {@code nodes} (fake) nodes,
 * {@link #ranksPerNode()} = ceil(size / nodes) consecutive ranks per node, as Hydra places them for
 * {@code -hosts a1:p,a2:p}. The last node used may hold fewer; nodes beyond the last rank are left out.
 * Served to ranks as {@code PMI_process_mapping} (PMI.md §0.5) and mirrored in
 * {@code MPI_LOCALRANKID}/{@code MPI_LOCALNRANKS}.
 */
public final class ProcessMapping {
    /** The key every process manager answers itself, before any barrier. */
    public static final String KEY = "PMI_process_mapping";

    private final int size;
    private final int ranksPerNode;
    private final int nodes;

    private ProcessMapping(int size, int requestedNodes) {
        if (size < 1) {
            throw new IllegalArgumentException("a job has at least one rank, not " + size);
        }
        if (requestedNodes < 1 || requestedNodes > size) {
            throw new IllegalArgumentException("the number of nodes must be between 1 and the number of ranks ("
                    + size + "), not " + requestedNodes);
        }
        this.size = size;
        this.ranksPerNode = ceilDiv(size, requestedNodes);
        this.nodes = ceilDiv(size, ranksPerNode);
    }

    /** All ranks on one node. */
    public static ProcessMapping singleNode(int size) {
        return new ProcessMapping(size, 1);
    }

    /** {@code size} ranks in blocks over at most {@code nodes} nodes (1 ≤ nodes ≤ size). */
    public static ProcessMapping blocks(int size, int nodes) {
        return new ProcessMapping(size, nodes);
    }

    public int size() {
        return size;
    }

    /** Nodes that hold at least one rank. */
    public int nodes() {
        return nodes;
    }

    public int ranksPerNode() {
        return ranksPerNode;
    }

    public int nodeOf(int rank) {
        checkRank(rank);
        return rank / ranksPerNode;
    }

    /** The rank's index among the ranks of its node ({@code MPI_LOCALRANKID}). */
    public int localRank(int rank) {
        checkRank(rank);
        return rank % ranksPerNode;
    }

    /** How many ranks share the rank's node ({@code MPI_LOCALNRANKS}). */
    public int localSize(int rank) {
        int first = nodeOf(rank) * ranksPerNode;
        return Math.min(ranksPerNode, size - first);
    }

    /** The {@code PMI_process_mapping} value: one block, repeated by readers until every rank is placed. */
    public String pmiValue() {
        return "(vector,(0," + nodes + "," + ranksPerNode + "))";
    }

    @Override
    public String toString() {
        return pmiValue();
    }

    private void checkRank(int rank) {
        if (rank < 0 || rank >= size) {
            throw new IndexOutOfBoundsException("rank " + rank + " of a job of " + size);
        }
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
