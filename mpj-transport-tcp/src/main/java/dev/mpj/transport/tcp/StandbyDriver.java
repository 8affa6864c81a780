package dev.mpj.transport.tcp;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a {@link DrivenEventLoop} while the thread that calls MPI stays away from it: when nobody has taken the loop
 * with {@link DrivenEventLoop#tryHold} for a while (the wait policy's {@code standbyAfterNanos}), the standby holds
 * it, blocking in the selector until there is work or someone asks for it back. So a rank that computes, or waits
 * on a future rather than in the engine, still accepts connections, answers handshakes and notices lost peers;
 * frames it reads then reach the engine through its inbox, as from any other thread.
 */
final class StandbyDriver {
    /**
     * Upper bound of one blocking run, a backstop only: I/O, queued and due tasks, the MPI thread's request and
     * {@link #stop} end it sooner. Netty's handler can lose a wake-up that lands while it re-selects after many
     * cancelled keys (that select clears the selector's pending wake-up); this bounds what such a loss costs, long
     * enough that a rank waiting in a PMI fence or for a peer is not woken to find nothing to do.
     */
    private static final long BACKSTOP_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final DrivenEventLoop loop;
    private final long awayNanos;
    private volatile boolean stopped;
    private volatile Thread thread;

    /** @param awayNanos how long the loop may go untaken before the standby runs it */
    StandbyDriver(DrivenEventLoop loop, long awayNanos) {
        this.loop = loop;
        this.awayNanos = awayNanos;
    }

    /** Runs on the calling thread until {@link #stop}. */
    void run() {
        thread = Thread.currentThread();
        long seen = loop.holds();
        while (!stopped) {
            LockSupport.parkNanos(this, awayNanos);
            long now = loop.holds();
            if (now != seen) {
                seen = now; // the MPI thread came meanwhile
                continue;
            }
            if (stopped || !loop.acquire()) {
                continue;
            }
            try {
                loop.clearWanted();
                while (!stopped && !loop.isWanted()) {
                    loop.run(BACKSTOP_NANOS);
                }
                loop.runNow(); // the tasks the asking thread queued before it got the loop
            } finally {
                loop.release();
            }
            seen = loop.holds();
        }
    }

    /** Stops the standby and waits (at most {@code timeoutMillis}) until it no longer holds the loop. */
    void stop(long timeoutMillis) {
        stopped = true;
        loop.wakeupHolder();
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            LockSupport.unpark(t);
            try {
                t.join(timeoutMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
