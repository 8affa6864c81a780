package dev.mpj.runtime.config;

/**
 * Whether {@code mpjrun} binds each rank it starts to one core of its own, setting {@code mpj.bindTo}, as Open MPI's
 * {@code --bind-to}. Two ranks the scheduler leaves on one CPU take turns on it, and a shared-memory hand-over
 * then waits for the other rank's time slice instead of a cache line.
 */
public enum BindTo implements SettingValue {
    /** {@link #CORE} when the ranks on the machine do not outnumber the CPUs mpjrun may run on, else {@link #NONE}. */
    AUTO,
    /** Rank i on the i-th CPU mpjrun may run on; unbound when they are too few. */
    CORE,
    /** Every rank free to run on any CPU mpjrun may run on. */
    NONE
}
