package dev.mpj.runtime.bootstrap;

/**
 * Where an exchange marks the end of each of its phases, so the init report can charge the time of the fence
 * wait and of the segment mapping it overlaps apart from the strategy's own work.
 */
public interface PhaseClock {
    /** The time since the previous mark belongs to phase {@code name}. */
    void phase(String name);

    /**
     * The exchange entered its PMI fence without waiting: what runs until the {@code fence} phase ends it overlaps
     * the wait for the slower ranks.
     */
    default void fenceStarted() {
    }
}
