package dev.mpj.runtime.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        PollingIdleStrategy idle = new PollingIdleStrategy(0, 0, 4_000, now::get);
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
    void periodsOutOfOrderAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new PollingIdleStrategy(2_000, 1_000, 50_000));
        assertThrows(IllegalArgumentException.class, () -> new PollingIdleStrategy(0, 0, 10));
    }
}
