package dev.mpj.it;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a job ends when a rank never joins it, or when mpjrun gets a signal: at once, naming the rank, with the
 * status a shell would give.
 */
@Timeout(120)
@Tag("multi-jvm")
class JobEndingIT {
    /** Far below the 65 s the other ranks' init watchdog would take: only an early end of the job fits in it. */
    private static final long JOB_SECONDS = 30;

    @ParameterizedTest(name = "status {0}")
    @CsvSource({"0, 1", "5, 5"})
    void aRankExitingBeforeInitEndsTheJobNamingItAndItsStatus(int status, int expectedExit) {
        Job.Result r = Job.np(3).timeout(JOB_SECONDS).run(ExitBeforeInitProgram.class, Integer.toString(status));
        assertFalse(r.timedOut(), r::toString);
        assertEquals(expectedExit, r.exitCode(), r::toString);
        assertTrue(r.err().contains("rank 1 (pid "), r::toString);
        // "before MPI.Init" once another rank has connected; with status 0 only that makes it a failure
        assertTrue(r.err().contains("exited with status " + status + (status == 0 ? " before MPI.Init" : "")),
                r::toString);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }

    @RepeatedTest(3)
    void sigintEndsMpjrunWith130() throws Exception {
        assertSignalEndsTheJobWith("INT", 130);
    }

    @RepeatedTest(3)
    void sigtermEndsMpjrunWith143() throws Exception {
        assertSignalEndsTheJobWith("TERM", 143);
    }

    /**
     * A batch system's SIGTERM to a job of 64 ranks, all past MPI.Init: mpjrun ends 143 and takes every rank and
     * its node segment in /dev/shm with it, saying no more than a line per rank. Prints how long the stop took.
     */
    @Test
    @Timeout(180)
    void sigtermStopsA64RankJobLeavingNoRankNoSegmentNoTrace() throws Exception {
        int np = 64;
        Path segments = Files.createTempDirectory(Path.of("/dev/shm"), "mpj-it-");
        try {
            Job.Running job = Job.np(np).launcherOptions("--oversubscribe")
                    .rankJvmOptions("-Xmx32m -Xss512k -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto")
                    .env("MPJ_SEGMENT_DIR", segments.toString())
                    .start(FailingProgram.class, "hang");
            long started = System.nanoTime();
            job.awaitLines("ready rank", np, 150);
            System.out.printf("%d ranks past MPI.Init after %d ms%n", np, (System.nanoTime() - started) / 1_000_000);
            long signalled = System.nanoTime();
            job.launcher().destroy(); // SIGTERM
            Job.Result r = job.await(60);
            System.out.printf("mpjrun stopped %d ranks %d ms after SIGTERM%n", np,
                    (System.nanoTime() - signalled) / 1_000_000);
            assertEquals(143, r.exitCode(), r::toString);
            assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
            assertEquals(List.of(), segmentsIn(segments), r::toString);
            List<String> lines = r.err().lines().toList();
            assertTrue(lines.size() <= np + 1, r::toString); // the launcher's line, at most one per rank
            assertTrue(lines.stream().noneMatch(l -> l.startsWith("\tat ") || l.startsWith("Caused by")),
                    r::toString);
        } finally {
            try (Stream<Path> left = Files.list(segments)) {
                left.forEach(f -> f.toFile().delete());
            }
            Files.delete(segments);
        }
    }

    private static List<Path> segmentsIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }

    private static void assertSignalEndsTheJobWith(String signal, int expected)
            throws IOException, InterruptedException {
        Job.Running job = Job.np(2).start(FailingProgram.class, "hang");
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (job.outSoFar().lines().filter(l -> l.startsWith("ready rank")).count() < 2) {
            assertTrue(System.nanoTime() < deadline, () -> "ranks never got ready: " + job.outSoFar());
            Thread.sleep(20);
        }
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(job.launcher().pid())).start();
        assertEquals(0, kill.waitFor());
        Job.Result r = job.await(30);
        assertEquals(expected, r.exitCode(), r::toString);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }
}
