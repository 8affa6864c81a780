package dev.mpj.runtime.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs {@link PmiProbeMain} as a two-rank job under MPICH's Hydra ({@code mpiexec.hydra}), in its default
 * PMI_FD mode, in {@code -pmi-port} mode, and over two emulated nodes. Skipped when Hydra is not installed,
 * unless {@code CI=true}.
 */
@Tag("hydra")
class PmiUnderHydraTest {
    private static final Path HYDRA = Path.of("/usr/bin/mpiexec.hydra");
    private static final Pattern LINE = Pattern.compile(
            "rank=(\\d) size=(\\d) dialect=(\\S+) got=(\\S+) card=(\\S+) mapping=(\\S*)");

    private record RankReport(int rank, int size, String dialect, String got, String card, String mapping) {
    }

    @BeforeAll
    static void requireHydra() {
        if (!Files.isExecutable(HYDRA)) {
            assertTrue(!"true".equals(System.getenv("CI")), HYDRA + " is missing and CI=true");
            assumeTrue(false, HYDRA + " is not installed");
        }
    }

    @Test
    @Timeout(60)
    void ranksExchangeValuesOverTheInheritedSocket() throws Exception {
        List<RankReport> ranks = runJob();
        assertExchanged(ranks);
        assertEquals("(vector,(0,1,1))", ranks.get(0).mapping());
    }

    @Test
    @Timeout(60)
    void ranksExchangeValuesInPmiPortMode() throws Exception {
        assertExchanged(runJob("-pmi-port"));
    }

    @Test
    @Timeout(60)
    void processMappingShowsTwoEmulatedNodes() throws Exception {
        List<RankReport> ranks = runJob("-launcher", "fork", "-hosts", "a1:1,a2:1");
        assertExchanged(ranks);
        for (RankReport r : ranks) {
            assertEquals("(vector,(0,2,1))", r.mapping(), "rank " + r.rank());
        }
    }

    @Test
    @Timeout(60)
    void abortEndsTheJobWithItsExitCode() throws Exception {
        Job job = Job.start(List.of(), "abort");
        assertEquals(7, job.exitCode(), "mpiexec exit code; output:\n" + job.output());
    }

    private static void assertExchanged(List<RankReport> ranks) {
        assertEquals(2, ranks.size());
        for (RankReport r : ranks) {
            assertEquals(2, r.size());
            assertEquals("pmi1", r.dialect());
            assertEquals("hello-from-" + (r.rank() + 1) % 2, r.got(), "rank " + r.rank() + " read its peer's key");
            assertEquals("ok", r.card(), "rank " + r.rank() + " read its peer's five-segment card");
        }
    }

    /** Runs a two-rank job with the given mpiexec options; returns the ranks' reports, ordered by rank. */
    private static List<RankReport> runJob(String... options) throws IOException, InterruptedException {
        Job job = Job.start(List.of(options));
        String output = job.output();
        assertEquals(0, job.exitCode(), "mpiexec exit code; output:\n" + output);
        RankReport[] byRank = new RankReport[2];
        Matcher m = LINE.matcher(output);
        while (m.find()) {
            RankReport r = new RankReport(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), m.group(3),
                    m.group(4), m.group(5), m.group(6));
            byRank[r.rank()] = r;
        }
        assertTrue(byRank[0] != null && byRank[1] != null, "both ranks report; output:\n" + output);
        return List.of(byRank);
    }

    /** A finished {@code mpiexec.hydra <options> -n 2 java … PmiProbeMain <probeArgs>} run. */
    private record Job(int exitCode, String output) {
        static Job start(List<String> options, String... probeArgs) throws IOException, InterruptedException {
            List<String> command = new ArrayList<>(List.of(HYDRA.toString()));
            command.addAll(options);
            command.addAll(List.of("-n", "2", javaExecutable(), "-Xmx64m", "-XX:TieredStopAtLevel=1",
                    "-cp", System.getProperty("java.class.path"), PmiProbeMain.class.getName()));
            command.addAll(List.of(probeArgs));
            // Output goes to a file, so that a hung job fails at waitFor instead of blocking on a pipe read.
            Path log = Files.createTempFile("mpj-hydra-", ".log");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(log.toFile());
                builder.environment().keySet().removeIf(k -> k.startsWith("PMI_") || k.startsWith("MPJ_"));
                Process process = builder.start();
                try {
                    boolean finished = process.waitFor(50, TimeUnit.SECONDS);
                    String output = Files.readString(log, StandardCharsets.UTF_8);
                    assertTrue(finished, "mpiexec did not finish; output so far:\n" + output);
                    return new Job(process.exitValue(), output);
                } finally {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                }
            } finally {
                Files.deleteIfExists(log);
            }
        }
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
