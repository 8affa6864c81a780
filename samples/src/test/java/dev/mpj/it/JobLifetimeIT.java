package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing a job started outlives it: not its rank JVMs when mpjrun is SIGKILLed, wherever the ranks are, and
 * not the children the ranks started, however the job ends. On one node (shared memory), on two fake nodes
 * (TCP), and on three fake nodes through a chain of node agents (decision 0036), in mpjrun or in JVMs of their own,
 * whose JVMs and shared KVS tables must go too.
 */
@Timeout(120)
@Tag("multi-jvm")
class JobLifetimeIT {
    /** How long the ranks and their children may outlive a SIGKILLed mpjrun. */
    private static final long GONE_WITHIN_NANOS = 2_000_000_000L;

    static Stream<Arguments> placements() {
        return Stream.of(Arguments.of("one node", List.of()), Arguments.of("two nodes", List.of("--fake-nodes", "2")),
                Arguments.of("three nodes through agents", List.of("--fake-nodes", "3", "-env", "MPJ_AGENTS", "true",
                        "-env", "MPJ_AGENT_TREE_WIDTH", "1", "-env", "MPJ_AGENT_JVMS", "per-node")),
                Arguments.of("three nodes through agents in one JVM", List.of("--fake-nodes", "3", "-env",
                        "MPJ_AGENTS", "true", "-env", "MPJ_AGENT_TREE_WIDTH", "1", "-env", "MPJ_AGENT_JVMS",
                        "shared")),
                Arguments.of("three nodes through agents in mpjrun", List.of("--fake-nodes", "3", "-env",
                        "MPJ_AGENTS", "true", "-env", "MPJ_AGENT_TREE_WIDTH", "1", "-env", "MPJ_AGENT_JVMS",
                        "launcher")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("placements")
    void sigkillOfMpjrunBeforeMpiInitTakesRanksAndChildrenWithIt(String name, List<String> placement)
            throws Exception {
        assertSigkillOfMpjrunLeavesNothing(placement, "before");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("placements")
    void sigkillOfMpjrunInsideMpiInitTakesRanksAndChildrenWithIt(String name, List<String> placement)
            throws Exception {
        assertSigkillOfMpjrunLeavesNothing(placement, "inside");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("placements")
    void aKilledRanksChildDiesWithIt(String name, List<String> placement) throws Exception {
        Job.Result r = Job.np(3).launcherOptions(placement.toArray(String[]::new)).timeout(60)
                .run(LifetimeProgram.class, "killed");
        assertEquals(137, r.exitCode(), r::toString);
        assertGone(r.marker(), r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("placements")
    void aJobEndingNormallyLeavesNoChildBehind(String name, List<String> placement) throws Exception {
        Job.Result r = Job.np(3).launcherOptions(placement.toArray(String[]::new)).timeout(60)
                .run(LifetimeProgram.class, "normal");
        assertEquals(0, r.exitCode(), r::toString);
        assertGone(r.marker(), r);
    }

    private static void assertSigkillOfMpjrunLeavesNothing(List<String> placement, String mode) throws Exception {
        int np = 3;
        Job.Running job = Job.np(np).launcherOptions(placement.toArray(String[]::new))
                .start(LifetimeProgram.class, mode);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (job.outSoFar().lines().filter(l -> l.startsWith("ready rank")).count() < np) {
            assertTrue(System.nanoTime() < deadline, () -> "ranks never got ready: " + job.outSoFar());
            Thread.sleep(20);
        }
        assertNotEquals(0, Job.leftovers(job.marker()).size(), "the ranks and children run before the kill");
        String agentMarker = "-Dmpj.agent.launcher=" + job.launcher().pid() + " ";
        List<Long> agents = Job.leftovers(agentMarker).stream().map(ProcessHandle::pid).toList();
        int agentJvms = !placement.contains("MPJ_AGENTS") || placement.contains("launcher") ? 0
                : placement.contains("shared") ? 1 : 2;
        assertEquals(agentJvms, agents.size(), "the agents of nodes 1 and 2, in mpjrun, in one JVM or one each");
        Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(job.launcher().pid())).start();
        assertEquals(0, kill.waitFor());
        Job.Result r = job.await(30);
        assertEquals(137, r.exitCode(), r::toString);
        assertGone(r.marker(), r);
        assertGone(agentMarker, r);
        try (Stream<Path> shm = Files.list(Path.of("/dev/shm"))) {
            List<Path> tables = shm.filter(f -> agents.stream().anyMatch(
                    a -> f.getFileName().toString().startsWith("mpj-kvs-mpj_" + a + "_"))).toList();
            assertTrue(tables.isEmpty(), "shared KVS tables of killed agents left behind: " + tables);
        }
    }

    /** Polls until no process carries {@code marker}, failing if one still does after the allowed time. */
    private static void assertGone(String marker, Job.Result r) throws InterruptedException {
        long deadline = System.nanoTime() + GONE_WITHIN_NANOS;
        List<ProcessHandle> left = Job.leftovers(marker);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            left = Job.leftovers(marker);
        }
        List<String> described = left.stream().map(h -> h.pid() + " " + h.info().commandLine().orElse("?")).toList();
        assertTrue(left.isEmpty(), () -> "left behind: " + described + "\n" + r);
    }
}
