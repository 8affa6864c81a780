package dev.mpj.transport.tcp;

import java.util.concurrent.locks.LockSupport;

/**
 * Runs a {@link DrivenEventLoop} while the thread that calls MPI stays away from it: when nobody has taken the loop
 * with {@link DrivenEventLoop#tryHold} for a while (the wait policy's {@code standbyAfterNanos}), the standby holds
 * it, blocking in the selector with no time limit, until someone asks for it back. So a rank that computes, or waits on a future
 * rather than in the engine, still accepts connections, answers handshakes and notices lost peers; frames it reads
 * then reach the engine through its inbox, as from any other thread.
 */
final class StandbyDriver {
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
                // no bound on the wait: a rank that waits long (in a PMI fence, for a peer) must not wake up to find
                // nothing to do; I/O, a queued task, a due scheduled task, the MPI thread asking and stop() end it
                while (!stopped && !loop.isWanted()) {
                    loop.run(DrivenEventLoop.UNBOUNDED);
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
