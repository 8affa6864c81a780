package dev.mpj.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class ParallelStartsTest {
    @Test
    void everyProcessStartsIntoItsOwnSlot() throws Exception {
        Process[] started = new Process[6];
        IOException failure = ParallelStarts.start(i -> new ProcessBuilder("sh", "-c", "exit " + i), i -> "p" + i,
                started, "test-start-");
        assertNull(failure);
        for (int i = 0; i < started.length; i++) {
            assertTrue(started[i].waitFor(20, TimeUnit.SECONDS));
            assertEquals(i, started[i].exitValue(), "slot " + i + " holds process " + i);
        }
    }

    @Test
    void aProcessThatCannotStartIsNamedAndTheOthersStillStart() throws Exception {
        Process[] started = new Process[6];
        IOException failure = ParallelStarts.start(
                i -> new ProcessBuilder(i == 2 ? "/nonexistent/mpj-program" : "true"), i -> "p" + i, started,
                "test-start-");
        assertNotNull(failure);
        assertTrue(failure.getMessage().startsWith("cannot start p2: "), failure.getMessage());
        assertNull(started[2]);
        for (int i : new int[] {0, 1, 3, 4, 5}) {
            assertTrue(started[i].waitFor(20, TimeUnit.SECONDS), "process " + i + " started and ended");
        }
    }
}
