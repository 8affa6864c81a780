package dev.mpj.runtime.spi;

import org.agrona.concurrent.IdleStrategy;

/** How a transport's own waits idle, so they follow the engine's wait policy ({@code mpj.waitPolicy}). */
public interface Idling {
    /** A fresh idle strategy for waits on frames or room that only polling finds. */
    IdleStrategy pollingIdleStrategy();

    /**
     * A fresh idle strategy for a wait for room in a peer's full ring that holds a long backlog: the peer frees
     * room only as it reads through that backlog, so the wait need not watch closely, and a waiter that spins
     * would only take a core from the reader (or from its compiler threads).
     */
    IdleStrategy backlogIdleStrategy();

    /** How long the MPI thread may stay away before a transport's standby thread takes over its sockets. */
    long standbyAfterNanos();
}
