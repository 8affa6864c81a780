package dev.mpj.transport.shm;

import java.util.Arrays;

/** The ranks of this node: world rank to local rank and back. */
final class LocalRanks {
    private final int[] ranks;
    private final int[] localOf;

    /** @param ranks the world ranks of this node in ascending order, in a job of {@code jobSize} ranks */
    LocalRanks(int[] ranks, int jobSize) {
        this.ranks = ranks.clone();
        this.localOf = new int[jobSize];
        Arrays.fill(localOf, -1);
        for (int local = 0; local < ranks.length; local++) {
            localOf[ranks[local]] = local;
        }
    }

    int size() {
        return ranks.length;
    }

    /** The local rank of world rank {@code rank}, or -1 when it is not on this node (or not in the job). */
    int localRankOf(int rank) {
        return rank < 0 || rank >= localOf.length ? -1 : localOf[rank];
    }

    int worldRank(int local) {
        return ranks[local];
    }

    int[] worldRanks() {
        return ranks.clone();
    }
}
