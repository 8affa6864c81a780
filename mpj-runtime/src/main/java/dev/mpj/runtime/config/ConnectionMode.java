package dev.mpj.runtime.config;

/**
 * The {@code mpj.connections} setting: when the TCP connections of a job open.
 * <p>
 * {@link #EAGER} pays for every pair during {@code MPI.Init} and wins for dense patterns (alltoall) at small and
 * medium scale; {@link #ONDEMAND} opens a pair at its first message and wins for sparse patterns (stencils) and
 * large jobs, where most pairs never talk. {@link #AUTO} picks eager up to {@link #AUTO_EAGER_MAX_RANKS} ranks.
 */
public enum ConnectionMode implements SettingValue {
    /** Every TCP pair connects during {@code MPI.Init}, in ordered rounds. */
    EAGER,
    /** A pair connects when one of its ranks first sends to the other. */
    ONDEMAND,
    /** {@link #EAGER} for jobs of at most {@link #AUTO_EAGER_MAX_RANKS} ranks, {@link #ONDEMAND} above. */
    AUTO;

    /**
     * Largest job that {@link #AUTO} connects eagerly: the largest size at which eager setup was measured not to
     * lose for a dense pattern (docs/PERFORMANCE.md, "Connection setup": from 4 to 16 ranks {@code MPI.Init} plus the
     * first alltoall took about as long in either mode, since both open the same connections). A sparse pattern pays
     * for every connection eager opens and it never uses, (P - ranks per node) / 2 per rank, so above the measured
     * range on-demand is the safe side.
     */
    public static final int AUTO_EAGER_MAX_RANKS = 16;

    /** {@link #EAGER} or {@link #ONDEMAND}: this mode for a job of {@code size} ranks. */
    public ConnectionMode resolve(int size) {
        if (this != AUTO) {
            return this;
        }
        return size <= AUTO_EAGER_MAX_RANKS ? EAGER : ONDEMAND;
    }
}
