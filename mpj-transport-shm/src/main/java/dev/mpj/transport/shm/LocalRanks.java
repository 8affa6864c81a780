package dev.mpj.transport.shm;

import dev.mpj.runtime.node.NodeMap;

/** The ranks of this node: world rank to local rank and back. */
final class LocalRanks {
    private final NodeMap map;
    private final int node;
    private final int[] ranks;

    LocalRanks(NodeMap map, int node) {
        this.map = map;
        this.node = node;
        this.ranks = map.ranksOn(node);
    }

    int size() {
        return ranks.length;
    }

    /** The local rank of world rank {@code rank}, or -1 when it is not on this node (or not in the job). */
    int localRankOf(int rank) {
        if (rank < 0 || rank >= map.size() || map.nodeOf(rank) != node) {
            return -1;
        }
        return map.localRank(rank);
    }

    int worldRank(int local) {
        return ranks[local];
    }

    int[] worldRanks() {
        return ranks.clone();
    }
}
