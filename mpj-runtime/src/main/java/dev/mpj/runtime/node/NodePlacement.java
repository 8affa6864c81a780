package dev.mpj.runtime.node;

/**
 * How many of the job's ranks share this rank's node, against the cores this process may run on: the one place
 * that decides whether the node is crowded, for the waits and for the collectives alike, so the two never
 * disagree.
 */
public record NodePlacement(int localRanks, int cores) {

    /** The placement of {@code rank} under {@code map}, on the cores this JVM sees. */
    public static NodePlacement of(NodeMap map, int rank) {
        return new NodePlacement(map.localSize(map.nodeOf(rank)), Runtime.getRuntime().availableProcessors());
    }

    /** Whether the node's ranks outnumber its cores, so every hand-over waits for a rank to get a core back. */
    public boolean crowded() {
        return localRanks > cores;
    }
}
