package dev.mpj.runtime.config;

/**
 * How a rank waits for frames that only polling finds (shared memory), setting {@code mpj.waitPolicy}, as Open
 * MPI's {@code mpi_yield_when_idle}: {@link #SPIN} keeps its core (a reply comes within a microsecond, and under
 * load a thread that yields loses its core for a scheduler slice), {@link #YIELD} gives it up soon (ranks
 * outnumber cores, and a spinning rank would keep the one it waits for off the CPU). {@link #AUTO} adapts while
 * the job runs: it waits as {@link #SPIN} while its waits find the cores free and yields between polls while they
 * find them crowded, judged from what the waits see (whether their yields run other threads), so the same
 * command waits the same way whenever it starts. Every policy backs off in the end: nothing spins forever.
 */
public enum WaitPolicy implements SettingValue {
    /**
     * As {@link #SPIN} while the waits find the cores free; while they find them crowded, spin 2 us, yield until
     * 10 ms (where the job's ranks outnumber the cores, until 200 us within 50 ms of a wait that lasted 1 ms), then
     * park at most 50 us at a time.
     */
    AUTO,
    /** Spin 2 ms, yield until 10 ms, then park at most 50 us at a time. */
    SPIN,
    /** Spin 20 us, yield until 200 us, then park at most 50 us at a time. */
    YIELD;

    /**
     * How long the thread that calls MPI may leave a transport's I/O untouched before a standby thread serves it
     * (accepts, answers handshakes, notices lost peers) until it comes back. With cores to spare ({@link #SPIN}),
     * 1 ms: a thread unseen that long is computing. With ranks outnumbering cores, a thread unseen for a few ms
     * has usually just lost its core to another rank, and a standby that took the I/O over then, only to hand it
     * back a moment later, cost a fifth to a third of a collective's time (np 16 on 2 cores: alltoall 80 to
     * 60 ms, allreduce 42 to 28 ms with 20 ms); so 20 ms, also for {@link #AUTO}, which cannot know at start.
     */
    public long standbyAfterNanos() {
        return this == SPIN ? 1_000_000 : 20_000_000;
    }
}
