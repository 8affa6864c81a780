package dev.mpj.runtime.spi;

import org.agrona.concurrent.IdleStrategy;

/** How a transport's own waits idle, so they follow the engine's wait policy ({@code mpj.waitPolicy}). */
public interface Idling {
    /** A fresh idle strategy for waits on frames or room that only polling finds. */
    IdleStrategy pollingIdleStrategy();

    /** How long the MPI thread may stay away before a transport's standby thread takes over its sockets. */
    long standbyAfterNanos();
}
