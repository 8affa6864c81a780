package dev.mpj.runtime.engine;

import dev.mpj.runtime.config.WaitPolicy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * How a rank waits for frames that only polling finds (shared memory: another process cannot wake it), by time
 * rather than by count, so it behaves the same on every CPU: it spins for {@code spinNanos} (a reply in a
 * ping-pong comes within microseconds, and a spinning thread keeps its core under load, where a yielding one
 * hands it to whoever else is runnable), then yields until {@code yieldNanos} (free when a core is idle, fair
 * when ranks outnumber cores), then parks, doubling from 1 us up to {@code maxParkNanos}, so a frame waits at
 * most about that long (plus the kernel's timer slack). A wait that has lasted {@link #DEEP_IDLE_NANOS} is no
 * longer one for a quick reply (a rank blocked on a slow peer, or idle until the job ends), so its parks go on
 * doubling up to {@link #DEEP_PARK_NANOS}: many such ranks on few cores would otherwise take the CPU from the
 * ranks that work, each waking every {@code maxParkNanos}.
 */
public final class PollingIdleStrategy implements IdleStrategy {
    /** Spins between two looks at the clock. */
    private static final int SPINS_PER_CLOCK_READ = 32;
    /** The longest park of either policy: how long a frame may wait in a ring for a rank that has gone idle. */
    static final long MAX_PARK_NANOS = 50_000;
    private static final long MIN_PARK_NANOS = 1_000;
    /** How long a wait lasts before its parks may grow past {@code maxParkNanos}. */
    static final long DEEP_IDLE_NANOS = 20_000_000;
    /** The longest park of a wait that has lasted {@link #DEEP_IDLE_NANOS}. */
    static final long DEEP_PARK_NANOS = 1_000_000;

    private final long spinNanos;
    private final long yieldNanos;
    private final long maxParkNanos;
    private final LongSupplier clock;
    private long idleSince;
    private long parkNanos;
    private int spins;

    /**
     * @param spinNanos    how long to spin after the last work
     * @param yieldNanos   until when (since the last work) to yield
     * @param maxParkNanos the longest park
     */
    public PollingIdleStrategy(long spinNanos, long yieldNanos, long maxParkNanos) {
        this(spinNanos, yieldNanos, maxParkNanos, System::nanoTime);
    }

    /** As {@link #PollingIdleStrategy(long, long, long)}, reading time from {@code clock} (nanoseconds). */
    PollingIdleStrategy(long spinNanos, long yieldNanos, long maxParkNanos, LongSupplier clock) {
        if (spinNanos < 0 || yieldNanos < spinNanos || maxParkNanos < MIN_PARK_NANOS) {
            throw new IllegalArgumentException("spin " + spinNanos + " <= yield " + yieldNanos + ", park "
                    + maxParkNanos + " >= " + MIN_PARK_NANOS);
        }
        this.spinNanos = spinNanos;
        this.yieldNanos = yieldNanos;
        this.maxParkNanos = maxParkNanos;
        this.clock = clock;
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
            idleSince = clock.getAsLong();
        }
        if (parkNanos == 0) {
            if (++spins < SPINS_PER_CLOCK_READ) {
                Thread.onSpinWait();
                return;
            }
            spins = 0;
            long idleFor = clock.getAsLong() - idleSince;
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
        long longest = parkNanos >= maxParkNanos && clock.getAsLong() - idleSince >= DEEP_IDLE_NANOS
                ? Math.max(maxParkNanos, DEEP_PARK_NANOS) : maxParkNanos;
        parkNanos = Math.min(parkNanos << 1, longest);
    }

    /** The length of the next park, 0 while still spinning or yielding. */
    long nextParkNanos() {
        return parkNanos;
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
