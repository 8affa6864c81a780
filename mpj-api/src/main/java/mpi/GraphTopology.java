package mpi;

import java.util.Arrays;

/**
 * A graph of nodes 0..n-1 in MPI's compressed form: {@code index[i]} is the number of neighbours of nodes
 * 0..i together, and node i's neighbours are {@code edges[index[i-1]]} up to {@code edges[index[i] - 1]}.
 * Pure data; {@link Graphcomm} binds it to a communicator.
 */
final class GraphTopology {
    private final int[] index;
    private final int[] edges;

    private GraphTopology(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    /**
     * A graph from user arguments, copied (edges past the last node's are ignored): {@code ERR_ARG} for
     * a missing array, an index that decreases or is negative, too few edges, or an edge to a node
     * outside 0..n-1.
     */
    static GraphTopology of(String call, int[] index, int[] edges) {
        if (index == null || edges == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + (index == null ? "index" : "edges") + " is null");
        }
        int previous = 0;
        for (int i = 0; i < index.length; i++) {
            if (index[i] < previous) {
                throw new MPIException(MPI.ERR_ARG, call + ": index[" + i + "] = " + index[i]
                        + " is below the previous entry (" + previous + "); index must count neighbours cumulatively");
            }
            previous = index[i];
        }
        int edgeCount = previous;
        if (edges.length < edgeCount) {
            throw new MPIException(MPI.ERR_ARG, call + ": index promises " + edgeCount + " edges but edges has "
                    + edges.length);
        }
        for (int e = 0; e < edgeCount; e++) {
            if (edges[e] < 0 || edges[e] >= index.length) {
                throw new MPIException(MPI.ERR_ARG, call + ": edges[" + e + "] = " + edges[e]
                        + " is not a node of the graph (0.." + (index.length - 1) + ")");
            }
        }
        return new GraphTopology(index.clone(), Arrays.copyOf(edges, edgeCount));
    }

    /** Nodes in the graph. */
    int size() {
        return index.length;
    }

    int[] index() {
        return index.clone();
    }

    int[] edges() {
        return edges.clone();
    }

    /** The neighbours of node {@code node} (0 ≤ node < size), in the order given. */
    int[] neighbours(int node) {
        return Arrays.copyOfRange(edges, node == 0 ? 0 : index[node - 1], index[node]);
    }
}
