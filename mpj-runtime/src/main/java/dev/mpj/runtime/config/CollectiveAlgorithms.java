package dev.mpj.runtime.config;

/**
 * The values of the {@code mpj.coll.*} settings: an algorithm forced for a collective, or {@code AUTO} to choose
 * by message size and process count.
 */
public final class CollectiveAlgorithms {
    private CollectiveAlgorithms() {
    }

    /** {@code mpj.coll.bcast}. */
    public enum Bcast implements SettingValue { AUTO, BINOMIAL, SCATTER_DOUBLING, SCATTER_RING }

    /** {@code mpj.coll.allgather}. */
    public enum Allgather implements SettingValue { AUTO, RECURSIVE_DOUBLING, RING }

    /** {@code mpj.coll.allreduce}. */
    public enum Allreduce implements SettingValue { AUTO, RECURSIVE_DOUBLING, RABENSEIFNER, RING }

    /** {@code mpj.coll.alltoall}. */
    public enum Alltoall implements SettingValue { AUTO, BRUCK, SCATTERED, PAIRWISE }

    /**
     * {@code mpj.coll.hierarchical}: whether the node-aware variants run: where they win ({@code AUTO}), wherever
     * they can, or never.
     */
    public enum Hierarchical implements SettingValue { AUTO, ON, OFF }

    /**
     * {@code mpj.coll.sharedMemory}: which collectives of a communicator whose members are all on one node run
     * through the node segment's collective room: the barrier and bcast, allreduce, allgather and alltoall on pairs,
     * and all on crowded nodes ({@code AUTO}, see {@code NodeLocalKinds}), also reduce, allreduce, allgather and alltoall of up to 2 KiB per
     * rank everywhere ({@code ON}), or none ({@code OFF}).
     */
    public enum SharedMemory implements SettingValue { AUTO, ON, OFF }
}
