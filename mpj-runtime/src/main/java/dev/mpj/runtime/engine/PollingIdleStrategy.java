package dev.mpj.runtime.engine;

import dev.mpj.runtime.config.WaitPolicy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * How a rank waits for frames that only polling finds (shared memory: another process cannot wake it), by time
 * rather than by count, so it behaves the same on every CPU: it spins for {@code spinNanos} (a reply in a
 * ping-pong comes within microseconds, and a spinning thread keeps its core under load, where a yielding one
 * hands it to whoever else is runnable), then yields until {@code yieldNanos} (free when a core is idle, fair
 * when ranks outnumber cores), then parks, doubling from 1 us up to {@code maxParkNanos}, so a frame waits at
 * most about that long (plus the kernel's timer slack) and an idle rank costs next to no CPU.
 */
public final class PollingIdleStrategy implements IdleStrategy {
    /** Spins between two looks at the clock. */
    private static final int SPINS_PER_CLOCK_READ = 32;
    /** The longest park of either policy: how long a frame may wait in a ring for a rank that has gone idle. */
    static final long MAX_PARK_NANOS = 50_000;
    private static final long MIN_PARK_NANOS = 1_000;

    private final long spinNanos;
    private final long yieldNanos;
    private final long maxParkNanos;
    private long idleSince;
    private long parkNanos;
    private int spins;

    /**
     * @param spinNanos    how long to spin after the last work
     * @param yieldNanos   until when (since the last work) to yield
     * @param maxParkNanos the longest park
     */
    public PollingIdleStrategy(long spinNanos, long yieldNanos, long maxParkNanos) {
        if (spinNanos < 0 || yieldNanos < spinNanos || maxParkNanos < MIN_PARK_NANOS) {
            throw new IllegalArgumentException("spin " + spinNanos + " <= yield " + yieldNanos + ", park "
                    + maxParkNanos + " >= " + MIN_PARK_NANOS);
        }
        this.spinNanos = spinNanos;
        this.yieldNanos = yieldNanos;
        this.maxParkNanos = maxParkNanos;
        reset();
    }

    /** A fresh idle strategy for polled waits under {@code policy} ({@link WaitPolicy#AUTO} waits as YIELD). */
    public static PollingIdleStrategy forPolicy(WaitPolicy policy) {
        return policy == WaitPolicy.SPIN
                ? new PollingIdleStrategy(2_000_000, 10_000_000, MAX_PARK_NANOS)
                : new PollingIdleStrategy(20_000, 200_000, MAX_PARK_NANOS);
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        if (idleSince == 0) {
            idleSince = System.nanoTime();
        }
        if (parkNanos == 0) {
            if (++spins < SPINS_PER_CLOCK_READ) {
                Thread.onSpinWait();
                return;
            }
            spins = 0;
            long idleFor = System.nanoTime() - idleSince;
            if (idleFor < spinNanos) {
                Thread.onSpinWait();
                return;
            }
            if (idleFor < yieldNanos) {
                Thread.yield();
                return;
            }
            parkNanos = MIN_PARK_NANOS;
        }
        LockSupport.parkNanos(parkNanos);
        parkNanos = Math.min(parkNanos << 1, maxParkNanos);
    }

    @Override
    public void reset() {
        idleSince = 0;
        parkNanos = 0;
        spins = 0;
    }

    @Override
    public String alias() {
        return "polling";
    }
}
