package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code ./mpjrun} script as the README uses it, on the packaged build. */
@Timeout(120)
@Tag("multi-jvm")
class MpjrunScriptIT {
    private static final String MPJRUN = Commands.repoRoot().resolve("mpjrun").toString();

    @Test
    void helloSampleRunsOnFourRanks() throws Exception {
        Commands.Output o = Commands.run(List.of(MPJRUN, "-np", "4", "hello"), Commands.repoRoot(), 90);
        assertEquals(0, o.exitCode(), o::text);
        for (int r = 0; r < 4; r++) {
            assertTrue(o.text().contains("Hello from rank " + r + " of 4 on "), o::text);
        }
    }

    @Test
    void piAndRingSamplesRun() throws Exception {
        Commands.Output pi = Commands.run(List.of(MPJRUN, "-np", "4", "pi", "1000000"), Commands.repoRoot(), 90);
        assertEquals(0, pi.exitCode(), pi::text);
        assertTrue(pi.text().contains("pi is approximately 3.14159"), pi::text);
        Commands.Output ring = Commands.run(List.of(MPJRUN, "-np", "3", "ring", "4"), Commands.repoRoot(), 90);
        assertEquals(0, ring.exitCode(), ring::text);
        assertTrue(ring.text().contains("token = 12 (expected 12)"), ring::text);
    }

    @Test
    void rankExitingSevenFailsTheJobNamingRankOne() throws Exception {
        Path testClasses = Path.of("target", "test-classes").toAbsolutePath();
        Commands.Output o = Commands.run(List.of(MPJRUN, "-np", "2", "-cp", testClasses.toString(),
                FailingProgram.class.getName(), "exit7"), Commands.repoRoot(), 60);
        assertNotEquals(0, o.exitCode(), o::text);
        assertTrue(o.text().contains("rank 1"), o::text);
    }
}
