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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two pretend nodes of two ranks, made three ways, give every rank the same node map, the same local ranks as
 * the launcher's {@code MPI_LOCALRANKID}, and a working node segment per node: {@code mpjrun --fake-nodes 2},
 * Hydra with {@code -launcher fork -hosts a1:2,a2:2}, and Hydra on one host with {@code MPJ_FAKE_NODES=2}.
 */
@Timeout(90)
class NodeMapUnderLaunchersTest {
    private static final Path HYDRA = Path.of("/usr/bin/mpiexec.hydra");
    private static final List<String> EXPECTED = List.of(
            "rank 0 map [[0, 1], [2, 3]] local 0 of 2 localid 0 segment ok",
            "rank 1 map [[0, 1], [2, 3]] local 1 of 2 localid 1 segment ok",
            "rank 2 map [[0, 1], [2, 3]] local 0 of 2 localid 0 segment ok",
            "rank 3 map [[0, 1], [2, 3]] local 1 of 2 localid 1 segment ok");
    private static final String JVM_OPTS = "-Xmx64m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

    @TempDir
    Path segments;

    @Test
    @Tag("multi-jvm")
    void mpjrunFakeNodes() {
        LaunchOptions options;
        try {
            options = LaunchOptions.parse(List.of("-np", "4", "--fake-nodes", "2", "-env", "MPJ_SEGMENT_DIR",
                            segments.toString(), NodeProbeMain.class.getName()), SampleCatalog.of(Map.of()),
                    Map.of(LaunchOptions.JVM_OPTS_VARIABLE, JVM_OPTS));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Job.run(options, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertEquals(EXPECTED, sortedLines(out.toString(StandardCharsets.UTF_8)));
        assertNoSegmentLeft();
    }

    @Test
    @Tag("hydra")
    void hydraWithTwoEmulatedHosts() throws Exception {
        assertEquals(EXPECTED, runHydra(Map.of(), "-launcher", "fork", "-hosts", "a1:2,a2:2"));
        assertNoSegmentLeft();
    }

    @Test
    @Tag("hydra")
    void hydraOnOneHostWithTheFakeNodesSetting() throws Exception {
        List<String> lines = runHydra(Map.of("MPJ_FAKE_NODES", "2"));
        // Hydra numbers local ranks over its one real host; the map follows the setting.
        assertEquals(EXPECTED.stream().map(l -> l.replaceFirst("localid \\d", "localid R")).toList(),
                lines.stream().map(l -> l.replaceFirst("localid \\d", "localid R")).toList());
        assertNoSegmentLeft();
    }

    private List<String> runHydra(Map<String, String> env, String... options) throws IOException,
            InterruptedException {
        assumeTrue(Files.isExecutable(HYDRA) || "true".equals(System.getenv("CI")), HYDRA + " is not installed");
        List<String> command = new ArrayList<>(List.of(HYDRA.toString()));
        command.addAll(List.of(options));
        command.addAll(List.of("-n", "4", Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of(JVM_OPTS.split(" ")));
        command.addAll(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), NodeProbeMain.class.getName()));
        Path log = Files.createTempFile("mpj-hydra-", ".log");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().keySet().removeIf(k -> k.startsWith("PMI_") || k.startsWith("MPJ_"));
            builder.environment().putAll(env);
            builder.environment().put("MPJ_SEGMENT_DIR", segments.toString());
            Process process = builder.start();
            try {
                boolean finished = process.waitFor(60, TimeUnit.SECONDS);
                String output = Files.readString(log, StandardCharsets.UTF_8);
                assertTrue(finished, "mpiexec did not finish; output so far:\n" + output);
                assertEquals(0, process.exitValue(), output);
                return sortedLines(output);
            } finally {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static List<String> sortedLines(String output) {
        return output.lines().filter(l -> l.startsWith("rank ")).sorted().toList();
    }

    private void assertNoSegmentLeft() {
        try (Stream<Path> files = Files.list(segments)) {
            assertEquals(List.of(), files.toList(), "the last rank of each node removes its segment");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
