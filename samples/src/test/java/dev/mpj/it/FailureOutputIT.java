package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A failed job says what happened in one line per failed rank, not in stack traces; with MPJ_FAILURE_LOG the
 * traces go to that file and the lines say where. On one node (shared memory) and on two fake nodes (TCP).
 */
@Timeout(120)
@Tag("multi-jvm")
class FailureOutputIT {
    private static final int NP = 4;
    private static final Pattern BLAMED = Pattern.compile("^mpjrun: rank (\\d+) \\(pid \\d+\\) exited with status \\d+ before");

    @ParameterizedTest(name = "fake nodes {0}")
    @ValueSource(ints = {1, 2})
    void otherRanksTracesBecomeOneLineEachAndGoToTheLog(int nodes, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("failure.log");
        Job.Result r = Job.np(NP).launcherOptions("--fake-nodes", Integer.toString(nodes))
                .env("MPJ_FAILURE_LOG", log.toString()).timeout(60).run(NoisyFailureProgram.class);
        // usually rank 0 (status 3); a rank that saw it go first over TCP may be blamed instead (status 1)
        assertTrue(r.exitCode() == 3 || r.exitCode() == 1, r::toString);
        List<String> lines = r.err().lines().toList();
        int culprit = blamedRank(lines, r);
        for (int rank = 1; rank < NP; rank++) {
            if (rank == culprit) {
                continue; // the first failure's own output is shown as it is
            }
            String cause = "java.lang.IllegalStateException: rank " + rank + " breaks";
            assertTrue(lines.stream().noneMatch(l -> l.startsWith("Exception in thread") && l.contains(cause)),
                    r::toString);
            String rankLine = "mpjrun: rank " + rank + " (pid ";
            List<String> about = lines.stream().filter(l -> l.startsWith(rankLine)).toList();
            assertEquals(1, about.size(), r::toString);
            assertTrue(about.get(0).contains(cause) && about.get(0).contains("(trace in " + log + ")"), r::toString);
        }
        if (culprit == 0) {
            assertTrue(lines.stream().noneMatch(l -> l.startsWith("\t")), r::toString);
        }
        assertTrue(lines.stream().filter(l -> l.startsWith("mpjrun: rank ")).count() <= NP, r::toString);
        String logged = Files.readString(log);
        for (int rank = 1; rank < NP; rank++) {
            assertTrue(logged.contains("java.lang.IllegalStateException: rank " + rank + " breaks"), logged);
        }
        assertTrue(logged.contains("\tat ") && logged.contains("Caused by: java.lang.RuntimeException: root cause"),
                logged);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }

    /** The rank mpjrun names as the first failure. */
    private static int blamedRank(List<String> lines, Job.Result r) {
        Matcher m = lines.stream().map(BLAMED::matcher).filter(Matcher::find).findFirst()
                .orElseThrow(() -> new AssertionError("no rank is blamed\n" + r));
        return Integer.parseInt(m.group(1));
    }
}
