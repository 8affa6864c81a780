package dev.mpj.runtime.config;

/**
 * How a rank waits for frames that only polling finds (shared memory), setting {@code mpj.waitPolicy}, as Open
 * MPI's {@code mpi_yield_when_idle}: {@link #SPIN} keeps its core (a reply comes within a microsecond, and under
 * load a thread that yields loses its core for a scheduler slice), {@link #YIELD} gives it up soon (ranks
 * outnumber cores, and a spinning rank would keep the one it waits for off the CPU). {@link #AUTO} spins only on
 * a machine with room: the ranks sharing it fit its cores, and it is not already busy with other work (on a
 * machine whose load average exceeded its cores, spinning ranks were measured 2 to 24 times slower than
 * yielding ones, since the rank waited for sits behind the spinner in the run queue). Both back off in the
 * end: nothing spins forever.
 */
public enum WaitPolicy implements SettingValue {
    /** {@link #SPIN} when the ranks sharing this machine fit its cores and it is not busy, else {@link #YIELD}. */
    AUTO,
    /** Spin 2 ms, yield until 10 ms, then park at most 50 us at a time. */
    SPIN,
    /** Spin 20 us, yield until 200 us, then park at most 50 us at a time. */
    YIELD;

    /**
     * This policy with {@link #AUTO} decided: spin when {@code ranks} fit in {@code cores} and the load average
     * (negative: unknown) is below {@code cores}.
     */
    public WaitPolicy resolve(int ranks, int cores, double loadAverage) {
        if (this != AUTO) {
            return this;
        }
        return ranks <= cores && loadAverage < cores ? SPIN : YIELD;
    }

    /**
     * How long the thread that calls MPI may leave a transport's I/O untouched before a standby thread serves it
     * (accepts, answers handshakes, notices lost peers) until it comes back. With cores to spare ({@link #SPIN}),
     * 1 ms: a thread unseen that long is computing. With ranks outnumbering cores, a thread unseen for a few ms
     * has usually just lost its core to another rank, and a standby that took the I/O over then, only to hand it
     * back a moment later, cost a fifth to a third of a collective's time (np 16 on 2 cores: alltoall 80 to
     * 60 ms, allreduce 42 to 28 ms with 20 ms); so 20 ms ({@link #AUTO} as {@link #YIELD}).
     */
    public long standbyAfterNanos() {
        return this == SPIN ? 1_000_000 : 20_000_000;
    }
}
