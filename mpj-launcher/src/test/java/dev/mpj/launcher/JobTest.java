package dev.mpj.launcher;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whole jobs of real child JVMs running {@link TestRanks}, supervised in this JVM. */
@Timeout(60)
@Tag("multi-jvm")
class JobTest {
    /** Small, quick-starting rank JVMs: the machine is shared. */
    private static final String RANK_JVM_OPTS = "-Xmx64m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto";

    @Test
    void ranksSeeEachOthersPutsAfterTheBarrierAndTheJobSucceeds() throws UsageException {
        Result r = run("-np", "4", TestRanks.ExchangeCards.class.getName());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(List.of("rank 0 saw v0,v1,v2,v3", "rank 1 saw v0,v1,v2,v3", "rank 2 saw v0,v1,v2,v3",
                "rank 3 saw v0,v1,v2,v3"), r.sortedOutLines());
    }

    @Test
    void rankExitingBeforeFinalizeFailsTheJobWithItsStatusAndNothingIsLeftRunning() throws UsageException {
        Result r = run("-np", "4", TestRanks.ExitBeforeFinalize.class.getName(), "1", "7");
        assertEquals(7, r.exitCode());
        assertTrue(r.err().matches("(?s).*mpjrun: rank 1 \\(pid \\d+\\) exited with status 7 before MPI\\.Finalize;"
                + " stopping the other 3 ranks\n.*"), r.err());
        assertTrue(r.elapsed().compareTo(Duration.ofSeconds(5)) < 0, "took " + r.elapsed());
        List<Long> pids = r.outLines().stream().filter(l -> l.startsWith("pid "))
                .map(l -> Long.parseLong(l.substring(4))).toList();
        assertEquals(5, pids.size(), "four ranks and the child of rank 2: " + r.out());
        for (long pid : pids) {
            assertFalse(isRunning(pid), "process " + pid + " survived the job");
        }
    }

    @Test
    void unknownMainClassIsRefusedBeforeAnyRankStarts() throws UsageException {
        Result r = run("-np", "8", "org.nowhere.NoSuchMain");
        assertEquals(Job.EXIT_USAGE, r.exitCode());
        assertTrue(r.err().contains("no class org.nowhere.NoSuchMain on the class path"), r.err());
        assertTrue(r.elapsed().compareTo(Duration.ofSeconds(2)) < 0, "no JVM was started: " + r.elapsed());
    }

    @Test
    void rankExitingZeroWithoutFinalizeFailsTheJobWithStatus1() throws UsageException {
        Result r = run("-np", "2", TestRanks.ExitBeforeFinalize.class.getName(), "0", "0");
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("rank 0 (pid "), r.err());
        assertTrue(r.err().contains("exited with status 0 before MPI.Finalize; stopping the other rank"), r.err());
    }

    @Test
    @Timeout(30)
    void rankExitingZeroBeforeTheOthersConnectFailsTheJobOnceTheyDo() throws UsageException {
        Result r = run("-np", "3", TestRanks.ExitZeroBeforeOthersConnect.class.getName(), "1500");
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().contains("rank 1 (pid "), r.err());
        assertTrue(r.err().contains("exited with status 0 before MPI.Init; stopping the other 2 ranks"), r.err());
    }

    @Test
    void abortEndsTheJobWithTheAbortCodeNamingTheRank() throws UsageException {
        Result r = run("-np", "4", TestRanks.AbortOnRank2.class.getName());
        assertEquals(3, r.exitCode());
        assertTrue(r.err().contains("mpjrun: rank 2 called MPI.Abort(3); stopping the other 3 ranks\n"), r.err());
    }

    @Test
    void uncaughtExceptionInARankFailsTheJobNamingTheRank() throws UsageException {
        Result r = run("-np", "3", TestRanks.ThrowOnRank1.class.getName());
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("rank 1 fails on purpose"), "the rank's own stderr is passed on: " + r.err());
        assertTrue(r.err().matches("(?s).*mpjrun: rank 1 \\(pid \\d+\\) exited with status 1 before MPI\\.Finalize;"
                + " stopping the other 2 ranks\n.*"), r.err());
    }

    @Test
    void malformedPmiLineFailsTheJobNamingTheRank() throws UsageException {
        Result r = run("-np", "2", TestRanks.GarbageOnRank1.class.getName());
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("mpjrun: rank 1 sent a malformed PMI line: "), r.err());
    }

    @Test
    void prefixOptionLabelsEveryLineWithItsRank() throws UsageException {
        Result r = run("-np", "2", "-l", TestRanks.Greet.class.getName());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(List.of("[0] hello from rank 0", "[1] hello from rank 1"), r.sortedOutLines());
        assertEquals(List.of("[0] note from rank 0: null", "[1] note from rank 1: null"), r.sortedErrLines());
    }

    @Test
    void envOptionReachesEveryRankOfANonMpiProgram() throws UsageException {
        Result r = run("-np", "2", "-env", "MPJ_TEST_GREETING", "hi there", TestRanks.Greet.class.getName());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(List.of("note from rank 0: hi there", "note from rank 1: hi there"), r.sortedErrLines());
    }

    @Test
    void fakeNodesGiveEachRankItsLocalIdsAndTheMapping() throws UsageException {
        Result r = run("-np", "4", "--fake-nodes", "2", TestRanks.ReportLocality.class.getName());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(List.of(
                "rank 0 local 0 of 2 mapping (vector,(0,2,2))",
                "rank 1 local 1 of 2 mapping (vector,(0,2,2))",
                "rank 2 local 0 of 2 mapping (vector,(0,2,2))",
                "rank 3 local 1 of 2 mapping (vector,(0,2,2))"), r.sortedOutLines());
    }

    @Test
    void nodeSegmentsOfAKilledJobAreRemovedAndOtherFilesKept(@TempDir Path dir) throws Exception {
        Path otherJob = Files.createFile(dir.resolve("mpj-another_job-n0"));
        Result r = run("-np", "3", "-env", "MPJ_SEGMENT_DIR", dir.toString(),
                TestRanks.LeaveSegmentAndDie.class.getName());
        assertEquals(7, r.exitCode(), r.err());
        assertEquals(3, r.outLines().stream().filter(l -> l.matches("created mpj-.*-n[0-2]")).count(), r.out());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(otherJob), left.toList());
        }
    }

    @Test
    void timeoutStopsAHangingJobWithStatus124() throws UsageException {
        Result r = run("-np", "2", "--timeout", "1.5", TestRanks.Hang.class.getName());
        assertEquals(124, r.exitCode());
        assertTrue(r.err().contains("mpjrun: job timed out after 1.5 s; stopping 2 ranks\n"), r.err());
    }

    // ---- helpers ----

    private record Result(int exitCode, String out, String err, Duration elapsed) {
        List<String> outLines() {
            return out.lines().toList();
        }

        List<String> sortedOutLines() {
            return out.lines().sorted().toList();
        }

        List<String> sortedErrLines() {
            return err.lines().sorted().toList();
        }
    }

    private static Result run(String... args) throws UsageException {
        LaunchOptions options = LaunchOptions.parse(List.of(args), SampleCatalog.of(Map.of()),
                Map.of(LaunchOptions.JVM_OPTS_VARIABLE, RANK_JVM_OPTS));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long start = System.nanoTime();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Job.run(options, o, e);
        }
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
                Duration.ofNanos(System.nanoTime() - start));
    }

    /** Alive and not a zombie (an orphan may stay one where nothing reaps it; it is gone all the same). */
    private static boolean isRunning(long pid) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty() || !h.get().isAlive()) {
            return false;
        }
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(Path.of("/proc/self/stat"))) {
            return true;
        }
        try {
            String s = Files.readString(stat);
            return s.charAt(s.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return false; // gone meanwhile
        }
    }
}
