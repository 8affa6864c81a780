package dev.mpj.runtime.engine;

import dev.mpj.runtime.config.WaitPolicy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * How a rank waits for frames that only polling finds (shared memory: another process cannot wake it), by time
 * rather than by count, so it behaves the same on every CPU: it spins for a while (a reply in a ping-pong comes
 * within microseconds, and a spinning thread keeps its core), then yields for a while (free when a core is idle,
 * fair when ranks outnumber cores), then parks, doubling from 1 us up to {@code maxParkNanos}, so a frame waits at
 * most about that long (plus the kernel's timer slack). How long it spins and yields is fixed ({@link
 * WaitPolicy#SPIN}, {@link WaitPolicy#YIELD}) or, for {@link WaitPolicy#AUTO}, chosen at every look at the clock
 * from what the waits have learned of the competition for the cores ({@link CoreContention}): the spin policy's
 * phases while the cores are free, the yield policy's while they are crowded. A wait that has lasted
 * {@link #DEEP_IDLE_NANOS} is no longer one for a quick reply (a rank blocked on a slow peer, or idle until the
 * job ends), so its parks go on doubling up to {@link #DEEP_PARK_NANOS}: many such ranks on few cores would
 * otherwise take the CPU from the ranks that work, each waking every {@code maxParkNanos}.
 */
public final class PollingIdleStrategy implements IdleStrategy {
    /** Spins between two looks at the clock. */
    static final int SPINS_PER_CLOCK_READ = 32;
    /** The longest park of every policy: how long a frame may wait in a ring for a rank that has gone idle. */
    static final long MAX_PARK_NANOS = 50_000;
    private static final long MIN_PARK_NANOS = 1_000;
    /** How long a wait lasts before its parks may grow past {@code maxParkNanos}. */
    static final long DEEP_IDLE_NANOS = 20_000_000;
    /** The longest park of a wait that has lasted {@link #DEEP_IDLE_NANOS}. */
    static final long DEEP_PARK_NANOS = 1_000_000;
    /**
     * A yield that kept the thread away longer than this ran another thread: a yield with nothing else runnable
     * comes back within microseconds, one that ran another thread after a scheduler slice or a wake-up's work.
     */
    static final long LOST_CORE_NANOS = 50_000;
    /**
     * How often an adaptive wait that spins yields once to probe the cores: a wait that keeps finding its reply
     * within the spin phase would otherwise never yield, and never learn that its peer is waiting for a core.
     */
    static final long PROBE_YIELD_NANOS = 100_000;

    /**
     * The clock of every wait but the tested ones: one class, so the wait loop's clock reads have one type profile;
     * a class, not a method reference, whose linkage would be a bootstrap call in MPI.Init.
     */
    private static final LongSupplier NANO_TIME = new NanoTime();

    private static final class NanoTime implements LongSupplier {
        @Override
        public long getAsLong() {
            return System.nanoTime();
        }
    }
    /** How long a wait spins, and until when it yields, after the last work. */
    record Phases(long spinNanos, long yieldNanos) {
        Phases {
            if (spinNanos < 0 || yieldNanos < spinNanos) {
                throw new IllegalArgumentException("spin " + spinNanos + " <= yield " + yieldNanos);
            }
        }
    }

    /** {@link WaitPolicy#SPIN}, and {@link WaitPolicy#AUTO} on free cores: keep the core 2 ms, yield until 10 ms. */
    static final Phases SPIN = new Phases(2_000_000, 10_000_000);
    /** {@link WaitPolicy#YIELD}: spin 20 us, yield until 200 us. */
    static final Phases YIELD = new Phases(20_000, 200_000);
    /**
     * {@link WaitPolicy#AUTO} on crowded cores: spin 2 us, then yield until 10 ms, as Open MPI's waits yield between
     * polls when ranks outnumber cores. A yield hands the core at once to a runnable rank on it, the one with work
     * if any, and costs nothing when none is; a parked rank instead waits for the scheduler's timer to wake it, so
     * parking after {@link #YIELD}'s 200 us made the small collectives of ranks outnumbering cores many times
     * slower than Open MPI's. Ranks idle longer than 10 ms still park, so a job with idle ranks leaves the cores
     * to others.
     */
    static final Phases CROWDED = new Phases(2_000, 10_000_000);
    /**
     * {@link WaitPolicy#AUTO} where the job's own ranks outnumber the cores, soon after a wait that lasted {@link
     * #LONG_WAIT_NANOS}: spin 2 us, yield until 200 us, then park. Such waits are for a peer rank that computes, not
     * for a reply in flight, and a yield that returns straight away (under EEVDF, until the yielder's turns add up
     * to the runner's) takes from the rank sharing its core, the one with work, as much CPU as it leaves it; a
     * parked rank takes none.
     */
    static final Phases CROWDED_AFTER_LONG_WAITS = new Phases(2_000, 200_000);
    /** A wait idle this long waits for a peer that computes. */
    static final long LONG_WAIT_NANOS = 1_000_000;
    /** How long after the last look at the clock of a long wait a new crowded wait parks soon. */
    static final long LONG_WAITS_REMEMBERED_NANOS = 50_000_000;

    private final Phases free;
    private final Phases crowded;
    /** What the waits learn of the cores; null when the phases are fixed. */
    private final CoreContention contention;
    private final long maxParkNanos;
    private final LongSupplier clock;
    private long idleSince;
    private long parkNanos;
    private int spins;
    /** When this wait last yielded, 0 when its last look at the clock was not followed by a yield. */
    private long lastYield;
    /** When this wait last yielded to probe the cores (or began), while {@link #contention} learns. */
    private long lastProbe;
    /** When a wait was last seen to have lasted {@link #LONG_WAIT_NANOS}, 0 before any. */
    private long lastLongWait;
    /** This wait began soon after a long one: on crowded cores it parks soon. */
    private boolean afterLongWait;

    /**
     * @param spinNanos    how long to spin after the last work
     * @param yieldNanos   until when (since the last work) to yield
     * @param maxParkNanos the longest park
     */
    public PollingIdleStrategy(long spinNanos, long yieldNanos, long maxParkNanos) {
        this(new Phases(spinNanos, yieldNanos), null, null, maxParkNanos, NANO_TIME);
    }

    /**
     * Waits in {@code free}'s phases while {@code contention} (null: always) judges the cores free, else in
     * {@code crowded}'s, teaching {@code contention} what each look at the {@code clock} (nanoseconds) shows.
     */
    PollingIdleStrategy(Phases free, Phases crowded, CoreContention contention, long maxParkNanos,
                        LongSupplier clock) {
        if (maxParkNanos < MIN_PARK_NANOS) {
            throw new IllegalArgumentException("park " + maxParkNanos + " >= " + MIN_PARK_NANOS);
        }
        this.free = free;
        this.crowded = crowded;
        this.contention = contention;
        this.maxParkNanos = maxParkNanos;
        this.clock = clock;
        reset();
    }

    /** A fresh idle strategy for polled waits under {@code policy}. */
    public static PollingIdleStrategy forPolicy(WaitPolicy policy) {
        return switch (policy) {
            case SPIN -> new PollingIdleStrategy(SPIN, null, null, MAX_PARK_NANOS, NANO_TIME);
            case YIELD -> new PollingIdleStrategy(YIELD, null, null, MAX_PARK_NANOS, NANO_TIME);
            case AUTO -> new PollingIdleStrategy(SPIN, CROWDED, CoreContention.OF_THIS_PROCESS, MAX_PARK_NANOS,
                    NANO_TIME);
        };
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else {
            idle();
        }
    }

    /**
     * The common case, a spin between two looks at the clock, is all this method does, so the wait loop it is
     * inlined into compiles from a profile of spins alone; the rest, rarer with each phase, is in {@link #pace}.
     */
    @Override
    public void idle() {
        if (parkNanos == 0 && idleSince != 0 && ++spins < SPINS_PER_CLOCK_READ) {
            Thread.onSpinWait();
            return;
        }
        pace();
    }

    /** The first idle of a wait, a look at the clock and what the phase it shows calls for, or a park. */
    private void pace() {
        if (idleSince == 0) {
            idleSince = now();
            lastProbe = idleSince;
            afterLongWait = lastLongWait != 0 && idleSince - lastLongWait < LONG_WAITS_REMEMBERED_NANOS
                    && contention != null && contention.outnumberedByRanks();
            spins = 1;
            Thread.onSpinWait();
            return;
        }
        if (parkNanos == 0) {
            spins = 0;
            long now = now();
            Phases phases = learn(now);
            long idleFor = now - idleSince;
            if (phases == crowded) {
                phases = crowdedPhases(now, idleFor);
            }
            if (idleFor < phases.spinNanos) {
                if (contention != null && now - lastProbe >= PROBE_YIELD_NANOS) {
                    lastProbe = now;
                    Thread.yield();
                    lastYield = now;
                } else {
                    Thread.onSpinWait();
                }
                return;
            }
            if (idleFor < phases.yieldNanos) {
                Thread.yield();
                lastYield = now;
                return;
            }
            parkNanos = MIN_PARK_NANOS;
        }
        LockSupport.parkNanos(parkNanos);
        long longest = maxParkNanos;
        if (parkNanos >= maxParkNanos) {
            long now = now();
            long idleFor = now - idleSince;
            if (crowded != null) {
                crowdedPhases(now, idleFor);
            }
            if (idleFor >= DEEP_IDLE_NANOS) {
                longest = Math.max(maxParkNanos, DEEP_PARK_NANOS);
            }
        }
        parkNanos = Math.min(parkNanos << 1, longest);
    }

    /** Notes a wait that has lasted long; returns the crowded phases this wait is in. */
    private Phases crowdedPhases(long now, long idleFor) {
        if (idleFor >= LONG_WAIT_NANOS) {
            lastLongWait = now;
        }
        return afterLongWait ? CROWDED_AFTER_LONG_WAITS : crowded;
    }

    /** The one place the clock is read, so its profile holds every clock the waits have read. */
    private long now() {
        return clock.getAsLong();
    }

    /** Tells the contention whether the last yield ran another thread; returns the phases to wait in now. */
    private Phases learn(long now) {
        CoreContention c = contention;
        if (c == null) {
            return free;
        }
        if (lastYield != 0 && now - lastYield > LOST_CORE_NANOS) {
            c.lostCore(now);
        }
        lastYield = 0;
        return c.crowded(now) ? crowded : free;
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
        lastYield = 0;
        lastProbe = 0;
        afterLongWait = false;
    }

    @Override
    public String alias() {
        return "polling";
    }
}
