package dev.mpj.api;

/**
 * What the runtime needs to know of a communicator: its two context ids (point-to-point traffic and
 * collective traffic never match each other), its members as world ranks in communicator rank order,
 * and the caller's rank in it.
 */
public record CommSpec(int pointToPointContext, int collectiveContext, int[] worldRanks, int rank) {
    public int size() {
        return worldRanks.length;
    }
}
