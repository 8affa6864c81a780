package mpi;

/** What {@link Graphcomm#Get()} returns: the graph as given to {@link Intracomm#Create_graph}. */
public class GraphParms {
    public int[] index;
    public int[] edges;

    GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }
}
