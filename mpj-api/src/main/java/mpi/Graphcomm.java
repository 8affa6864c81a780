package mpi;

import dev.mpj.api.CommSpec;

/**
 * A communicator whose processes are the nodes of a graph ({@link Intracomm#Create_graph}): rank i is
 * node i.
 */
public class Graphcomm extends Intracomm {
    private final GraphTopology graph;

    Graphcomm(String name, GraphTopology graph) {
        super(name);
        this.graph = graph;
    }

    @Override
    Intracomm sameKind(String name) {
        return new Graphcomm(name, graph);
    }

    /** {@link Intracomm#Dup} with the same topology. */
    @Override
    public Graphcomm Dup() {
        return (Graphcomm) super.Dup();
    }

    /** {@link MPI#GRAPH}. */
    @Override
    public int Topo_test() {
        spec();
        return MPI.GRAPH;
    }

    /** The graph as given at creation (copies). */
    public GraphParms Get() {
        spec();
        return new GraphParms(graph.index(), graph.edges());
    }

    /** The neighbours of {@code rank}, in the order given at creation. {@code ERR_RANK} for a rank outside the graph. */
    public int[] Neighbours(int rank) {
        int size = Size();
        if (rank < 0 || rank >= size) {
            throw new MPIException(MPI.ERR_RANK, "Graphcomm.Neighbours: rank " + rank + " is not a rank of " + this
                    + " (size " + size + ")");
        }
        return graph.neighbours(rank);
    }

    /**
     * The rank the caller would have in a graph made from this communicator: its own rank if within the
     * graph, else {@link MPI#UNDEFINED}. {@code ERR_ARG} for a bad graph or one larger than the communicator.
     */
    public int Map(int[] index, int[] edges) {
        String call = "Graphcomm.Map";
        CommSpec spec = spec();
        GraphTopology other = GraphTopology.of(call, index, edges);
        if (other.size() > spec.size()) {
            throw new MPIException(MPI.ERR_ARG, call + ": the graph has " + other.size() + " nodes but " + this
                    + " has " + spec.size() + " processes");
        }
        return spec.rank() < other.size() ? spec.rank() : MPI.UNDEFINED;
    }
}
