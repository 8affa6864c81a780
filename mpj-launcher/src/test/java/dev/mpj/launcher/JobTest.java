package dev.mpj.launcher;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    @ParameterizedTest(name = "agents {0}")
    @ValueSource(booleans = {false, true})
    void abortEndsTheJobWithTheAbortCodeNamingTheRank(boolean agents) throws UsageException {
        Result r = run(placed(agents, 2, "-np", "4", TestRanks.AbortOnRank2.class.getName()));
        assertEquals(3, r.exitCode());
        assertTrue(r.err().contains("mpjrun: rank 2 called MPI.Abort(3); stopping the other 3 ranks\n"), r.err());
    }

    @ParameterizedTest(name = "agents {0}")
    @ValueSource(booleans = {false, true})
    void uncaughtExceptionInARankFailsTheJobNamingTheRank(boolean agents) throws UsageException {
        Result r = run(placed(agents, 3, "-np", "3", TestRanks.ThrowOnRank1.class.getName()));
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("rank 1 fails on purpose"), "the rank's own stderr is passed on: " + r.err());
        assertTrue(r.err().matches("(?s).*mpjrun: rank 1 \\(pid \\d+\\) exited with status 1 before MPI\\.Finalize;"
                + " stopping the other 2 ranks\n.*"), r.err());
    }

    @ParameterizedTest(name = "agents {0}")
    @ValueSource(booleans = {false, true})
    void malformedPmiLineFailsTheJobNamingTheRank(boolean agents) throws UsageException {
        Result r = run(placed(agents, 2, "-np", "2", TestRanks.GarbageOnRank1.class.getName()));
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

    @ParameterizedTest(name = "agents {0}")
    @ValueSource(booleans = {false, true})
    void timeoutStopsAHangingJobWithStatus124(boolean agents) throws UsageException {
        Result r = run(placed(agents, 2, "-np", "2", "--timeout", "1.5", TestRanks.Hang.class.getName()));
        assertEquals(124, r.exitCode());
        assertTrue(r.err().contains("mpjrun: job timed out after 1.5 s; stopping 2 ranks\n"), r.err());
    }

    // ---- node agents (decision 0036) ----

    /** Agents on, with two children per agent: five nodes make three levels (0; 1, 2; 3, 4). */
    private static final List<String> AGENTS = List.of("-env", "MPJ_AGENTS", "true", "-env", "MPJ_AGENT_TREE_WIDTH",
            "2");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"launcher", "per-node", "shared"})
    void agentsStartAlongTheTreeAndEveryRankRunsUnderItsNodesAgent(String jvms) throws UsageException {
        Result r = run(agentJobIn(jvms, "-np", "10", "--fake-nodes", "5", TestRanks.ReportAgent.class.getName()));
        assertEquals(0, r.exitCode(), r.err());
        Map<Integer, Long> agentOfNode = new HashMap<>();
        Map<Long, Long> parentOfAgent = new HashMap<>();
        List<String> lines = r.outLines().stream().filter(l -> l.startsWith("tree rank ")).toList();
        assertEquals(10, lines.size(), r.out());
        for (String line : lines) {
            String[] f = line.split(" ");
            int node = Integer.parseInt(f[2]) / 2;
            long agent = Long.parseLong(f[4]);
            Long before = agentOfNode.putIfAbsent(node, agent);
            assertTrue(before == null || before == agent, "two agents on node " + node + ": " + r.out());
            parentOfAgent.put(agent, Long.parseLong(f[6]));
        }
        long launcher = ProcessHandle.current().pid();
        assertEquals(launcher, agentOfNode.get(0), "the launcher serves the first node");
        if (jvms.equals("launcher")) {
            assertEquals(Set.of(launcher), new HashSet<>(agentOfNode.values()), "every agent in the launcher: "
                    + agentOfNode);
            return;
        }
        if (jvms.equals("shared")) {
            assertEquals(2, new HashSet<>(agentOfNode.values()).size(), "the launcher and one agent JVM: " + agentOfNode);
            assertEquals(launcher, parentOfAgent.get(agentOfNode.get(1)), "started by the launcher: " + r.out());
            return;
        }
        assertEquals(5, new HashSet<>(agentOfNode.values()).size(), "one agent per node: " + agentOfNode);
        for (int node = 1; node < 5; node++) {
            assertEquals(agentOfNode.get((node - 1) / 2), parentOfAgent.get(agentOfNode.get(node)),
                    "node " + node + "'s agent is started by its parent's: " + r.out());
        }
    }

    @Test
    void eachNodesAgentPublishesTheProcessMappingAndTheWholeJobsKvsIntoItsOwnSharedTable() throws UsageException {
        Result r = run(agentJob("-np", "6", "--fake-nodes", "3", TestRanks.ReadSharedTable.class.getName()));
        assertEquals(0, r.exitCode(), r.err());
        Map<Integer, String> tableOfNode = new HashMap<>();
        List<String> lines = r.outLines().stream().filter(l -> l.contains(" table ")).toList();
        assertEquals(6, lines.size(), r.out());
        for (String line : lines) {
            String[] f = line.split(" ");
            assertEquals("v0,v1,v2,v3,v4,v5", f[5], "every card is in the node's table: " + line);
            assertEquals("(vector,(0,3,2))", f[7], "the process mapping is, before any barrier: " + line);
            String before = tableOfNode.putIfAbsent(Integer.parseInt(f[1]) / 2, f[3]);
            assertTrue(before == null || before.equals(f[3]), "one table per node: " + r.out());
        }
        assertEquals(3, new HashSet<>(tableOfNode.values()).size(), "a table per node: " + tableOfNode);
        for (String table : tableOfNode.values()) {
            assertFalse(Files.exists(Path.of(table)), table + " left behind");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"launcher", "shared"})
    void rankDeathUnderAnAgentEndsTheJobNamingTheRankAndLeavesNothingBehind(String jvms) throws Exception {
        Result r = run(agentJobIn(jvms, "-np", "6", "--fake-nodes", "3", TestRanks.ExitBeforeFinalize.class.getName(),
                "4", "7"));
        assertEquals(7, r.exitCode(), r.err());
        assertTrue(r.err().matches("(?s).*mpjrun: rank 4 \\(pid \\d+\\) exited with status 7 before MPI\\.Finalize;"
                + " stopping the other 5 ranks\n.*"), r.err());
        assertNothingLeft(r, 7);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"per-node", "shared"})
    void aKilledAgentEndsTheJobNamingItsNodeAndLeavesNothingBehind(String jvms) throws Exception {
        Result r = run(agentJobIn(jvms, "-np", "6", "--fake-nodes", "3", TestRanks.KillAgent.class.getName(), "4"));
        assertEquals(Job.EXIT_LAUNCH_FAILED, r.exitCode(), r.err());
        // a shared JVM holds nodes 1 and 2: whichever link or the JVM's exit is seen first names them
        assertTrue(jvms.equals("shared") ? r.err().matches("(?s).*mpjrun: the agents? of nodes? (1|2|1, 2) .*")
                : r.err().contains("mpjrun: the agent of node 2 "), r.err());
        assertNothingLeft(r, 6);
    }

    @Test
    void aBarrierThatCanNeverCompleteAfterAFinalizeOnAnotherNodeFailsTheJobInsteadOfHanging() throws UsageException {
        Result r = run(agentJob("-np", "4", "--fake-nodes", "2", TestRanks.FinalizeBeforeOthersBarrier.class.getName(),
                "2"));
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.err().matches("(?s).*mpjrun: rank [01] finalized while other ranks wait in a PMI fence, allgather"
                + " or ring that can now never complete; stopping the other [23] ranks\n.*"), r.err());
    }

    /** {@code args} as given, or with agents on {@code nodes} fake nodes, the failing rank on an agent's node. */
    private static String[] placed(boolean agents, int nodes, String... args) {
        if (!agents) {
            return args;
        }
        List<String> all = new ArrayList<>(List.of("--fake-nodes", Integer.toString(nodes)));
        all.addAll(List.of(args));
        return agentJob(all.toArray(new String[0]));
    }

    private static String[] agentJob(String... args) {
        List<String> all = new ArrayList<>(AGENTS);
        all.addAll(List.of(args));
        return all.toArray(new String[0]);
    }

    /** As {@link #agentJob(String...)}, the agents below the launcher in JVMs as {@code mpj.agentJvms} says. */
    private static String[] agentJobIn(String jvms, String... args) {
        List<String> all = new ArrayList<>(List.of("-env", "MPJ_AGENT_JVMS", jvms));
        all.addAll(List.of(agentJob(args)));
        return all.toArray(new String[0]);
    }

    /**
     * The {@code pid} lines' processes and the {@code agent pid} lines' agents (but the launcher, which may run
     * agents) are gone, and so are the agents' tables.
     */
    private static void assertNothingLeft(Result r, int pidLines) throws IOException {
        List<Long> pids = r.outLines().stream().filter(l -> l.startsWith("pid "))
                .map(l -> Long.parseLong(l.substring(4))).toList();
        assertEquals(pidLines, pids.size(), r.out());
        List<Long> agents = r.outLines().stream().filter(l -> l.startsWith("agent pid "))
                .map(l -> Long.parseLong(l.substring(10))).distinct().toList();
        assertFalse(agents.isEmpty(), r.out());
        List<Long> agentProcesses = agents.stream().filter(p -> p != ProcessHandle.current().pid()).toList();
        for (long pid : concat(pids, agentProcesses)) {
            assertFalse(isRunning(pid), "process " + pid + " survived the job");
        }
        try (Stream<Path> shm = Files.list(Path.of("/dev/shm"))) {
            List<Path> left = shm.filter(f -> agents.stream().anyMatch(
                    a -> f.getFileName().toString().startsWith("mpj-kvs-mpj_" + a + "_"))).toList();
            assertTrue(left.isEmpty(), "shared KVS tables left behind: " + left);
        }
    }

    private static List<Long> concat(List<Long> a, List<Long> b) {
        List<Long> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
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
