package dev.mpj.runtime.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Sleeps far longer than the tests' timeouts: a sleep that returns was ended by its ring. */
@Timeout(30)
class DoorbellTest {
    private static final long LONGER_THAN_THE_TEST = 600_000;

    @Test
    void aRingWakesASleeperOfAnotherDoorbell() throws Exception {
        try (Doorbell sleeper = new Doorbell(LONGER_THAN_THE_TEST); Doorbell waker = new Doorbell(1)) {
            sleepUntilRung(sleeper, waker);
        }
    }

    @Test
    void aRingBeforeTheSleepEndsItAtOnce() {
        try (Doorbell sleeper = new Doorbell(LONGER_THAN_THE_TEST); Doorbell waker = new Doorbell(1)) {
            waker.ring(sleeper.port());
            sleeper.sleep();
        }
    }

    @Test
    void aSleepTakesEveryRingThatCameBeforeIt() throws Exception {
        try (Doorbell sleeper = new Doorbell(LONGER_THAN_THE_TEST); Doorbell waker = new Doorbell(1)) {
            int port = sleeper.port();
            for (int i = 0; i < 3; i++) {
                waker.ring(port);
            }
            Thread.sleep(100); // the rings reach the socket
            sleeper.sleep();
            sleepUntilRung(sleeper, waker); // the earlier rings do not end the next sleep
        }
    }

    /** {@code sleeper} sleeps on another thread, still asleep a while later, until {@code waker} rings it. */
    private static void sleepUntilRung(Doorbell sleeper, Doorbell waker) throws Exception {
        int port = sleeper.port();
        CompletableFuture<Void> asleep = CompletableFuture.runAsync(sleeper::sleep);
        assertThrows(TimeoutException.class, () -> asleep.get(200, TimeUnit.MILLISECONDS), "nobody rang yet");
        waker.ring(port);
        asleep.get(20, TimeUnit.SECONDS);
    }

    @Test
    void theSleepIsBoundedByTheLongestSleep() {
        try (Doorbell bell = new Doorbell(1)) {
            assertNotEquals(0, bell.port());
            bell.sleep(); // nobody rings: returns after its longest sleep
        }
    }

    @Test
    void aClosedDoorbellHasNoPortAndDoesNotSleep() {
        Doorbell bell = new Doorbell(LONGER_THAN_THE_TEST);
        bell.port();
        bell.close();
        assertEquals(0, bell.port());
        bell.sleep();
    }
}
