package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stopping a job far larger than the machine's cores, as a batch system's SIGTERM does. */
@Tag("multi-jvm")
class LargeJobStopIT {
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
            assertEquals(List.of(), FaultsIT.filesIn(segments), r::toString);
            List<String> lines = r.err().lines().toList();
            assertTrue(lines.size() <= np + 1, r::toString); // the launcher's line, at most one per rank
            assertTrue(lines.stream().noneMatch(l -> l.startsWith("\tat ") || l.startsWith("Caused by")),
                    r::toString);
        } finally {
            FaultsIT.removeDirectory(segments);
        }
    }
}
