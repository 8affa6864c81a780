package mpi;

import java.util.Arrays;

/**
 * Translates between ranks of a communicator and world ranks. The world communicator (and any
 * communicator whose members are the world in order) translates with no table at all.
 */
final class RankMap {
    private final int[] worldRanks;
    /** commRanks[worldRank] = rank in the communicator, or UNDEFINED; null for the identity. */
    private final int[] commRanks;

    RankMap(int[] worldRanks, int worldSize) {
        this(worldRanks, isIdentity(worldRanks, worldSize) ? null : inverse(worldRanks));
    }

    private RankMap(int[] worldRanks, int[] commRanks) {
        this.worldRanks = worldRanks;
        this.commRanks = commRanks;
    }

    /** A map for a set of processes whose place in the world is not known (a group): always a table. */
    static RankMap of(int[] worldRanks) {
        return new RankMap(worldRanks, inverse(worldRanks));
    }

    private static boolean isIdentity(int[] worldRanks, int worldSize) {
        if (worldRanks.length != worldSize) {
            return false;
        }
        for (int i = 0; i < worldRanks.length; i++) {
            if (worldRanks[i] != i) {
                return false;
            }
        }
        return true;
    }

    private static int[] inverse(int[] worldRanks) {
        int highest = -1;
        for (int w : worldRanks) {
            highest = Math.max(highest, w);
        }
        int[] inverse = new int[highest + 1];
        Arrays.fill(inverse, MPI.UNDEFINED);
        for (int rank = 0; rank < worldRanks.length; rank++) {
            inverse[worldRanks[rank]] = rank;
        }
        return inverse;
    }

    int size() {
        return worldRanks.length;
    }

    /** The world ranks in rank order (not copied). */
    int[] worldRanks() {
        return worldRanks;
    }

    int toWorld(int rank) {
        return worldRanks[rank];
    }

    /** The communicator rank of a world rank; negative values (wildcards, PROC_NULL) pass through. */
    int toComm(int worldRank) {
        if (worldRank < 0) {
            return worldRank;
        }
        if (commRanks == null) {
            return worldRank < worldRanks.length ? worldRank : MPI.UNDEFINED;
        }
        return worldRank < commRanks.length ? commRanks[worldRank] : MPI.UNDEFINED;
    }
}
