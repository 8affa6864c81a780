package dev.mpj.runtime.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class PollingIdleStrategyTest {
    @Test
    void aWaitPastTheYieldPeriodParksRatherThanSpins() {
        PollingIdleStrategy idle = new PollingIdleStrategy(0, 0, 1_000_000);
        long start = System.nanoTime();
        for (int i = 0; i < 32 + 10; i++) { // one clock read's worth of spins, then parks of 1, 2, 4 … 512 us
            idle.idle(0);
        }
        assertTrue(System.nanoTime() - start >= 1_000_000, "ten doubling parks from 1 us last over 1 ms");
    }

    @Test
    void withinTheSpinPeriodItNeverParks() {
        PollingIdleStrategy idle = new PollingIdleStrategy(60_000_000_000L, 60_000_000_000L, 1_000_000);
        long start = System.nanoTime();
        for (int i = 0; i < 10_000; i++) {
            idle.idle(0);
        }
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "10 000 spins take nowhere near 10 000 parks");
    }

    @Test
    void parksStopAtTheLongestParkUntilTheWaitHasLastedLong() {
        AtomicLong now = new AtomicLong(1);
        PollingIdleStrategy idle = fixed(new PollingIdleStrategy.Phases(0, 0), 4_000, now::get);
        parkUntilSteady(idle);
        assertEquals(4_000, idle.nextParkNanos(), "a short wait parks at most maxParkNanos at a time");

        now.addAndGet(PollingIdleStrategy.DEEP_IDLE_NANOS);
        parkUntilSteady(idle);
        assertEquals(PollingIdleStrategy.DEEP_PARK_NANOS, idle.nextParkNanos(), "a long wait parks longer");

        idle.idle(1);
        assertEquals(0, idle.nextParkNanos(), "work starts the next wait from spinning");
    }

    private static void parkUntilSteady(PollingIdleStrategy idle) {
        for (int i = 0; i < 32 + 12; i++) { // one clock read's worth of spins, then parks up to 2^11 us
            idle.idle(0);
        }
    }

    @Test
    void anAdaptiveWaitStartsOnCrowdedCores() {
        AtomicLong now = new AtomicLong(1);
        CoreContention cores = new CoreContention(now.get());
        PollingIdleStrategy idle = adaptive(cores, now);
        waitFor(idle, now, PollingIdleStrategy.CROWDED.yieldNanos());
        assertTrue(idle.nextParkNanos() > 0, "past the crowded yield period a wait parks");
    }

    @Test
    void aQuietPeriodWithoutLostCoresJudgesTheCoresFreeAndTheWaitsSpinLonger() {
        AtomicLong now = new AtomicLong(1);
        CoreContention cores = freeCores(now);
        PollingIdleStrategy idle = adaptive(cores, now);
        waitFor(idle, now, PollingIdleStrategy.CROWDED.spinNanos() + 20_000);
        now.addAndGet(PollingIdleStrategy.LOST_CORE_NANOS + 1);
        spinUntilClockRead(idle);
        assertFalse(cores.crowded(now.get()),
                "past the crowded spin phase a wait on free cores still spins: it yielded no core away");
        assertEquals(0, idle.nextParkNanos());
    }

    @Test
    void onCrowdedCoresAWaitYieldsLongBeforeItParks() {
        AtomicLong now = new AtomicLong(1);
        PollingIdleStrategy idle = adaptive(new CoreContention(now.get()), now);
        waitFor(idle, now, PollingIdleStrategy.YIELD.yieldNanos() * 10);
        assertEquals(0, idle.nextParkNanos(), "a crowded wait yields far past the yield policy's period");
        waitFor(idle, now, PollingIdleStrategy.CROWDED.yieldNanos());
        assertTrue(idle.nextParkNanos() > 0, "and parks after a long idle");
    }

    @Test
    void onCrowdedCoresAWaitSoonAfterALongOneParksAfterABriefYield() {
        AtomicLong now = new AtomicLong(1);
        PollingIdleStrategy idle = adaptive(crowdedForGood(now), now);
        waitFor(idle, now, PollingIdleStrategy.LONG_WAIT_NANOS);
        assertEquals(0, idle.nextParkNanos(), "the first long wait still yields");
        assertTrue(nextWaitParksAfterTheBriefYield(idle, now), "the next wait parks once its brief yield is over");
    }

    @Test
    void aParkedWaitThatLastsLongKeepsTheNextWaitsParkingSoon() {
        AtomicLong now = new AtomicLong(1);
        PollingIdleStrategy idle = adaptive(crowdedForGood(now), now);
        oneLongWait(idle, now);
        waitFor(idle, now, PollingIdleStrategy.CROWDED_AFTER_LONG_WAITS.yieldNanos());
        parkUntilSteady(idle);
        now.addAndGet(PollingIdleStrategy.LONG_WAITS_REMEMBERED_NANOS - 1);
        idle.idle(0); // a park that looks at the clock: this wait, too, has lasted long
        now.addAndGet(PollingIdleStrategy.LONG_WAITS_REMEMBERED_NANOS - 1);
        assertTrue(nextWaitParksAfterTheBriefYield(idle, now), "a long wait seen while it parked is remembered too");
    }

    @Test
    void aLongWaitLongAgoLeavesTheCrowdedWaitsYieldingLong() {
        AtomicLong now = new AtomicLong(1);
        assertTrue(yieldsPastTheBriefYield(adaptive(crowdedForGood(now), now), now,
                PollingIdleStrategy.LONG_WAITS_REMEMBERED_NANOS), "a wait long after the last long one yields long");
    }

    @Test
    void onCoresCrowdedByOtherWorkALongWaitLeavesTheNextWaitsYieldingLong() {
        AtomicLong now = new AtomicLong(1);
        assertTrue(yieldsPastTheBriefYield(adaptive(new CoreContention(now.get()), now), now, 0),
                "only where the job's own ranks outnumber the cores do waits park soon");
    }

    @Test
    void onFreeCoresALongWaitLeavesTheNextWaitsSpinning() {
        AtomicLong now = new AtomicLong(1);
        assertTrue(yieldsPastTheBriefYield(fixed(PollingIdleStrategy.SPIN, PollingIdleStrategy.MAX_PARK_NANOS,
                now::get), now, 0), "the spin policy's phases are the same after a long wait");
    }

    /** Idles through a wait of {@link PollingIdleStrategy#LONG_WAIT_NANOS}, which work then ends. */
    private static void oneLongWait(PollingIdleStrategy idle, AtomicLong now) {
        waitFor(idle, now, PollingIdleStrategy.LONG_WAIT_NANOS);
        idle.idle(1);
    }

    /** Work ends this wait; whether the next has parked by the end of the brief yield period. */
    private static boolean nextWaitParksAfterTheBriefYield(PollingIdleStrategy idle, AtomicLong now) {
        idle.idle(1);
        waitFor(idle, now, PollingIdleStrategy.CROWDED_AFTER_LONG_WAITS.yieldNanos());
        return idle.nextParkNanos() > 0;
    }

    /** Whether a wait {@code gapNanos} after a long one still has not parked at twice the brief yield period. */
    private static boolean yieldsPastTheBriefYield(PollingIdleStrategy idle, AtomicLong now, long gapNanos) {
        oneLongWait(idle, now);
        now.addAndGet(gapNanos);
        waitFor(idle, now, PollingIdleStrategy.CROWDED_AFTER_LONG_WAITS.yieldNanos() * 2);
        return idle.nextParkNanos() == 0;
    }

    @Test
    void aYieldThatRanAnotherThreadJudgesTheCoresCrowded() {
        AtomicLong now = new AtomicLong(1);
        CoreContention cores = freeCores(now);
        PollingIdleStrategy idle = adaptive(cores, now);
        waitFor(idle, now, PollingIdleStrategy.SPIN.spinNanos()); // then it yields
        assertFalse(cores.crowded(now.get()));
        now.addAndGet(PollingIdleStrategy.LOST_CORE_NANOS + 1); // the yield gave the core away
        spinUntilClockRead(idle);
        assertTrue(cores.crowded(now.get()), "a yield that lost the core finds the cores crowded");
        waitFor(idle, now, PollingIdleStrategy.CROWDED.yieldNanos());
        assertTrue(idle.nextParkNanos() > 0, "the same wait goes on as a crowded one");
    }

    @Test
    void aWaitThatOnlySpinsProbesTheCoresWithAYieldAndLearnsThatTheyAreCrowded() {
        AtomicLong now = new AtomicLong(1);
        CoreContention cores = freeCores(now);
        PollingIdleStrategy idle = adaptive(cores, now);
        spinUntilClockRead(idle);
        now.addAndGet(PollingIdleStrategy.PROBE_YIELD_NANOS); // still far inside the spin phase: a probe yield
        spinUntilClockRead(idle);
        now.addAndGet(PollingIdleStrategy.LOST_CORE_NANOS * 2); // that yield ran another thread
        spinUntilClockRead(idle);
        assertTrue(cores.crowded(now.get()), "a probe yield that lost the core finds the cores crowded");
    }

    @Test
    void aWaitPreemptedWhileItSpinsKeepsTheCoresFree() {
        AtomicLong now = new AtomicLong(1);
        CoreContention cores = freeCores(now);
        PollingIdleStrategy idle = adaptive(cores, now);
        spinUntilClockRead(idle);
        now.addAndGet(PollingIdleStrategy.LOST_CORE_NANOS * 10); // other work ran: it had its turn, as did this
        spinUntilClockRead(idle);
        assertFalse(cores.crowded(now.get()));
        assertEquals(0, idle.nextParkNanos());
    }

    @Test
    void coresCrowdedSoonAfterBeingJudgedFreeNeedALongerQuietPeriod() {
        CoreContention cores = new CoreContention(0);
        long now = CoreContention.MIN_QUIET_NANOS;
        assertFalse(cores.crowded(now));
        cores.lostCore(now + 1);
        assertEquals(2 * CoreContention.MIN_QUIET_NANOS, cores.quietNanos());
        assertTrue(cores.crowded(now + 1 + CoreContention.MIN_QUIET_NANOS), "the first quiet period is not enough");
        now += 1 + 2 * CoreContention.MIN_QUIET_NANOS;
        assertFalse(cores.crowded(now));
        for (int i = 0; i < 20; i++) { // free, then crowded at once, over and over
            cores.lostCore(now);
            now += cores.quietNanos();
            assertFalse(cores.crowded(now));
        }
        assertEquals(CoreContention.MAX_QUIET_NANOS, cores.quietNanos(), "the quiet period stops growing");

        cores.lostCore(now + 8 * CoreContention.MAX_QUIET_NANOS); // after a long free spell
        assertEquals(CoreContention.MAX_QUIET_NANOS / 2, cores.quietNanos(), "a long free spell shortens it");
    }

    @Test
    void coresCrowdedForGoodAreNeverJudgedFree() {
        AtomicLong now = new AtomicLong(1);
        CoreContention cores = freeCores(now);
        assertFalse(cores.crowded(now.get()));
        cores.crowdedForGood();
        assertTrue(cores.crowded(now.get()));
        now.addAndGet(20 * CoreContention.MAX_QUIET_NANOS);
        assertTrue(cores.crowded(now.get()), "no quiet period, however long, judges them free");
        PollingIdleStrategy idle = adaptive(cores, now);
        waitFor(idle, now, PollingIdleStrategy.CROWDED.spinNanos() + 20_000);
        assertTrue(cores.crowded(now.get()), "nor do yields that came straight back");
        waitFor(idle, now, PollingIdleStrategy.CROWDED.yieldNanos());
        assertTrue(idle.nextParkNanos() > 0, "the wait yields and parks as a crowded one");
    }

    @Test
    void theFixedPoliciesNeverLearn() {
        AtomicLong now = new AtomicLong(1);
        PollingIdleStrategy idle = fixed(PollingIdleStrategy.SPIN, PollingIdleStrategy.MAX_PARK_NANOS, now::get);
        spinUntilClockRead(idle);
        now.addAndGet(PollingIdleStrategy.LOST_CORE_NANOS * 10);
        spinUntilClockRead(idle);
        assertEquals(0, idle.nextParkNanos(), "the spin policy spins 2 ms whatever it sees");
    }

    /** Cores crowded for good: the clock's jumps past a quiet period leave them crowded. */
    private static CoreContention crowdedForGood(AtomicLong now) {
        CoreContention cores = new CoreContention(now.get());
        cores.crowdedForGood();
        return cores;
    }

    /** Cores judged free at {@code now}, moved past the first quiet period. */
    private static CoreContention freeCores(AtomicLong now) {
        CoreContention cores = new CoreContention(now.get());
        now.addAndGet(CoreContention.MIN_QUIET_NANOS);
        return cores;
    }

    private static PollingIdleStrategy adaptive(CoreContention cores, AtomicLong now) {
        return new PollingIdleStrategy(PollingIdleStrategy.SPIN, PollingIdleStrategy.CROWDED, cores,
                PollingIdleStrategy.MAX_PARK_NANOS, now::get);
    }

    private static PollingIdleStrategy fixed(PollingIdleStrategy.Phases phases, long maxParkNanos,
                                             java.util.function.LongSupplier clock) {
        return new PollingIdleStrategy(phases, null, null, maxParkNanos, clock);
    }

    /** Idles {@code nanos} of {@code now}'s time in steps far shorter than a lost core. */
    private static void waitFor(PollingIdleStrategy idle, AtomicLong now, long nanos) {
        spinUntilClockRead(idle);
        for (long waited = 0; waited < nanos; waited += 10_000) {
            now.addAndGet(10_000);
            spinUntilClockRead(idle);
        }
    }

    /** Idles until the strategy has looked at the clock once more (a spin, yield or park follows it). */
    private static void spinUntilClockRead(PollingIdleStrategy idle) {
        for (int i = 0; i < 32; i++) {
            idle.idle(0);
        }
    }

    @Test
    void periodsOutOfOrderAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new PollingIdleStrategy(2_000, 1_000, 50_000));
        assertThrows(IllegalArgumentException.class, () -> new PollingIdleStrategy(0, 0, 10));
    }
}
