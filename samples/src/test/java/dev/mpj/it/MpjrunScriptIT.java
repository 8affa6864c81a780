package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.ArrayList;
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

    private static final String PROBE = SingletonProbeProgram.class.getName();

    /** A job of one, through {@code env} so that it may set variables for mpjrun. */
    private static Commands.Output probe(String... variables) throws Exception {
        List<String> command = new ArrayList<>(List.of("env"));
        command.addAll(List.of(variables));
        command.addAll(List.of(MPJRUN, "-np", "1", "-cp", Path.of("target", "test-classes").toAbsolutePath().toString(),
                PROBE));
        return Commands.run(command, Commands.repoRoot(), 60);
    }

    @Test
    void aJobOfOneThatRanBeforeStartsWithoutTheLauncher() throws Exception {
        Commands.Output first = probe();
        assertEquals(0, first.exitCode(), first::text);
        Commands.Output again = probe();
        assertEquals(0, again.exitCode(), again::text);
        assertTrue(again.text().contains("started direct as rank 0 of 1, received 0 42 43"), again::text);
        Commands.Output off = probe("MPJ_DIRECT=off");
        assertEquals(0, off.exitCode(), off::text);
        assertTrue(off.text().contains("started launched as rank 0 of 1"), off::text);
        Commands.Output otherFlags = probe("MPJ_JVM_OPTS=-Xmx80m");
        assertEquals(0, otherFlags.exitCode(), otherFlags::text);
        assertTrue(otherFlags.text().contains("started launched as rank 0 of 1"), otherFlags::text);
    }

    /** A job of one ends with the same status, and names the rank, whether the launcher runs it or not. */
    @ParameterizedTest
    @CsvSource({"abort5, 5, rank 0 called MPI.Abort(5)", "return, 1, before MPI.Finalize",
            "exit7, 7, before MPI.Finalize"})
    void aJobOfOneEndsAsThroughTheLauncher(String end, int status, String line) throws Exception {
        assertEquals(0, probe().exitCode()); // the memo of this job, for the direct start below
        for (boolean direct : new boolean[] {true, false}) {
            Commands.Output o = direct ? probe("PROBE_END=" + end) : probe("PROBE_END=" + end, "MPJ_DIRECT=off");
            assertTrue(o.text().contains(direct ? "started direct" : "started launched"), o::text);
            assertEquals(status, o.exitCode(), o::text);
            assertTrue(o.text().contains(line), o::text);
            assertTrue(o.text().contains("rank 0"), o::text);
        }
    }
}
