package dev.mpj.api;

/**
 * What the runtime needs to know of a communicator: its two context ids (point-to-point traffic and
 * collective traffic never match each other), its members as world ranks in communicator rank order,
 * and the caller's rank in it.
 */
public record CommSpec(int pointToPointContext, int collectiveContext, int[] worldRanks, int rank) {
    /**
     * The tag of the messages the {@code mpi} classes themselves send on the collective context (the shift of
     * {@code Exscan}); the runtime's collectives use tags from 1 up.
     */
    public static final int API_TAG = 0;

    public int size() {
        return worldRanks.length;
    }
}
