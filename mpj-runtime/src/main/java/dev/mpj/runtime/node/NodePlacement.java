package dev.mpj.runtime.node;

/**
 * How many of the job's ranks share this rank's node, against the cores this process may run on: the one place
 * that decides whether the node is crowded, for the waits and for the collectives alike, so the two never
 * disagree.
 */
public record NodePlacement(int localRanks, int cores) {

    /**
     * The placement of {@code rank} under {@code map}, on {@code nodeCpus} cores, or the cores this JVM sees when 0.
     * A rank bound to one core sees one, so every rank of a node counts the cores its launcher passed on, and all
     * take the same collective paths.
     */
    public static NodePlacement of(NodeMap map, int rank, int nodeCpus) {
        return new NodePlacement(map.localSize(map.nodeOf(rank)),
                nodeCpus > 0 ? nodeCpus : Runtime.getRuntime().availableProcessors());
    }

    /** Whether the node's ranks outnumber its cores, so every hand-over waits for a rank to get a core back. */
    public boolean crowded() {
        return localRanks > cores;
    }
}
