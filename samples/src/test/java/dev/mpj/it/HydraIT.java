package dev.mpj.it;

import dev.mpj.samples.Hello;
import dev.mpj.samples.MatMul;
import dev.mpj.samples.Pi;
import dev.mpj.samples.Ring;
import dev.mpj.samples.bench.AlltoallLatency;
import dev.mpj.samples.bench.Bandwidth;
import dev.mpj.samples.bench.ConnBench;
import dev.mpj.samples.bench.InitBench;
import dev.mpj.samples.bench.Latency;
import dev.mpj.samples.ft.Ft;
import dev.mpj.samples.stencil.Stencil3d;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same Java programs under MPICH's Hydra: PMI-1 over the inherited socket (PMI_FD, the default),
 * over TCP ({@code -pmi-port}), and with two emulated nodes ({@code -launcher fork -hosts a1:2,a2:2}); the
 * acceptance run of FT on two emulated nodes also in PMI-2 ({@code -genv MPJ_PMI pmi2}), whose Hydra fence is
 * no barrier. And mpjrun handing a job whose hosts are other machines to Hydra.
 */
@Timeout(120)
@Tag("hydra")
class HydraIT {
    @BeforeAll
    static void hydra() {
        Commands.requireHydra();
    }

    /** The node segment (Agrona 2.x) needs this in every rank JVM of a multi-rank job. */
    static final List<String> ADD_EXPORTS = List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED");

    private static List<String> mpiexec(String mode, int np, Class<?> main, String... args) {
        return mpiexec("pmi1", mode, np, main, args);
    }

    static List<String> mpiexec(String dialect, String mode, int np, Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>(List.of("mpiexec.hydra", "-genv", "MPJ_PMI", dialect));
        switch (mode) {
            case "fd" -> { }
            case "port" -> cmd.add("-pmi-port");
            case "fake-nodes" -> cmd.addAll(List.of("-launcher", "fork", "-hosts", "a1:2,a2:2"));
            case "two-nodes" -> cmd.addAll(List.of("-launcher", "fork", "-hosts", "a1:" + np / 2 + ",a2:" + np / 2));
            case "four-nodes" -> {
                int p = np / 4;
                cmd.addAll(List.of("-launcher", "fork", "-hosts", "a1:" + p + ",a2:" + p + ",a3:" + p + ",a4:" + p));
            }
            default -> throw new IllegalArgumentException(mode);
        }
        cmd.addAll(List.of("-n", Integer.toString(np), Commands.java()));
        cmd.addAll(List.of(Job.RANK_JVM_OPTS.split(" ")));
        cmd.addAll(ADD_EXPORTS);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fd", "port", "fake-nodes"})
    void helloPrintsOneLinePerRank(String mode) throws Exception {
        Commands.Output o = Commands.run(mpiexec(mode, 4, Hello.class), Commands.repoRoot(), 90);
        assertEquals(0, o.exitCode(), o::text);
        for (int r = 0; r < 4; r++) {
            assertTrue(o.text().contains("Hello from rank " + r + " of 4 on "), o::text);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fd", "port", "fake-nodes"})
    void ringPassesTheTokenRoundEveryRank(String mode) throws Exception {
        Commands.Output o = Commands.run(mpiexec(mode, 4, Ring.class, "5"), Commands.repoRoot(), 90);
        assertEquals(0, o.exitCode(), o::text);
        assertTrue(o.text().contains("token = 20 (expected 20)"), o::text);
    }

    /** Hydra's PMI-1 (PMI_FD and port) and PMI-2 on two emulated hosts: the non-blocking fence's semantics. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"pmi1,fd", "pmi1,port", "pmi1,two-nodes", "pmi2,two-nodes"})
    void nonBlockingFenceRefusesEarlyGetsAndKeepsTheCounts(String dialect, String mode) throws Exception {
        Commands.Output o = Commands.run(mpiexec(dialect, mode, 4, FenceProbeProgram.class), Commands.repoRoot(), 90);
        assertEquals(0, o.exitCode(), o::text);
        FenceProbes.assertEveryRankKeptPmiSemantics(o.text(), 4);
    }

    /** The acceptance run ({@code -hosts a1:4,a2:4,a3:4,a4:4 -n 16}) for roots; np = 8 keeps the others short. */
    @ParameterizedTest(name = "{0} np={1}")
    @CsvSource({"roots,16", "simple,8", "shm,8"})
    void initbenchOnFourEmulatedHostsSeesFourNodesAndTheFormulaCounts(String exchange, int np) throws Exception {
        Commands.Output o = Commands.run(mpiexec("four-nodes", np, InitBench.class, "--exchange", exchange),
                Commands.repoRoot(), 90);
        assertEquals(0, o.exitCode(), o::text);
        assertTrue(o.text().contains("nprocs: " + np + ", min: "), o::text);
        assertTrue(o.text().contains("nodes: 4, exchange: " + exchange), o::text);
        String counts = switch (exchange) {
            case "simple" -> "puts=" + np + " gets=" + np * np;
            case "shm" -> "puts=" + np + " gets=" + 4 * np;
            default -> "puts=4 gets=12";
        };
        assertTrue(o.text().contains("exchange PMI operations of the job: " + counts + " "), o::text);
    }

    /** Every sample on two emulated nodes (shared memory inside, TCP between), in both PMI dialects; FT has its own test. */
    static Stream<Arguments> samplesOnTwoNodes() {
        List<Object[]> samples = List.of(
                new Object[]{Hello.class, List.of(), "Hello from rank 3 of 4 on "},
                new Object[]{Ring.class, List.of("5"), "token = 20 (expected 20)"},
                new Object[]{Pi.class, List.of("100000"), "pi is approximately 3.14159"},
                new Object[]{MatMul.class, List.of("48"), "matmul n=48 np=4"},
                new Object[]{Stencil3d.class, List.of("6", "3"), "stencil3d np=4"},
                new Object[]{Latency.class, List.of("-m", "64", "-i", "200", "-x", "20"), "Latency (us)"},
                new Object[]{Bandwidth.class, List.of("-m", "4096", "-i", "5", "-x", "1"), "Bandwidth (MB/s)"},
                new Object[]{InitBench.class, List.of(), "nprocs: 4,"},
                new Object[]{ConnBench.class, List.of("--ops", "alltoall", "-i", "5"), "# connbench"},
                // the five collective benchmarks share CollectiveLatency; alltoall crosses the nodes from every rank
                new Object[]{AlltoallLatency.class, List.of("-m", "4096", "-i", "5", "-x", "1"),
                        "# OSU MPI-style Alltoall Latency Test"});
        return Stream.of("pmi1", "pmi2").flatMap(dialect -> samples.stream()
                .map(s -> Arguments.of(dialect, ((Class<?>) s[0]).getSimpleName(), s[0], s[1], s[2])));
    }

    @ParameterizedTest(name = "{1} {0}")
    @MethodSource("samplesOnTwoNodes")
    @SuppressWarnings("unchecked")
    void everySampleRunsOnTwoEmulatedNodes(String dialect, String name, Class<?> sample, Object args, String expected)
            throws Exception {
        Commands.Output o = Commands.run(mpiexec(dialect, "two-nodes", 4, sample,
                ((List<String>) args).toArray(String[]::new)), Commands.repoRoot(), 90);
        assertEquals(0, o.exitCode(), o::text);
        assertTrue(o.text().contains(expected), o::text);
    }

    /** The acceptance run: {@code -launcher fork -hosts a1:4,a2:4 -n 8}, FT class S, in both PMI dialects. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pmi1", "pmi2"})
    void ftClassSVerifiesOnTwoEmulatedNodes(String dialect) throws Exception {
        Commands.Output o = Commands.run(mpiexec(dialect, "two-nodes", 8, Ft.class, "--class", "S"),
                Commands.repoRoot(), 110);
        assertEquals(0, o.exitCode(), o::text);
        assertTrue(o.text().contains(" Verification    =               SUCCESSFUL"), o::text);
    }

    /** Hydra 4.0.2 answers PMI-2 only with a fence that does not wait: the barrier must still hold. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fd", "fake-nodes"})
    void ringRunsInPmi2(String mode) throws Exception {
        List<String> cmd = mpiexec("pmi2", mode, 4, Ring.class, "5");
        cmd.addAll(1, List.of("-genv", "MPJ_INIT_TIMINGS", "true"));
        Commands.Output o = Commands.run(cmd, Commands.repoRoot(), 90);
        assertEquals(0, o.exitCode(), o::text);
        assertTrue(o.text().contains("token = 20 (expected 20)"), o::text);
        assertEquals(4, o.text().lines().filter(l -> l.contains(" pmi(pmi2) ")).count(), o::text);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fd", "fake-nodes"})
    void pointToPointSuiteProgramRunsUnderHydra(String mode) throws Exception {
        Commands.Output o = Commands.run(mpiexec(mode, 4, RequestsProgram.class), Commands.repoRoot(), 90);
        assertEquals(0, o.exitCode(), o::text);
        assertEquals(4, o.text().lines().filter(l -> l.contains("requests OK rank")).count(), o::text);
    }

    /** Fake host names are other machines to mpjrun: the job runs through mpiexec.hydra, here with its fork launcher. */
    @Test
    void mpjrunRunsAJobOnOtherHostsThroughHydraWithItsGenvAndWdir(@TempDir Path dir) throws Exception {
        Path wdir = dir.toRealPath();
        Job.Result r = Job.np(4).launcherOptions("-launcher", "fork", "-hosts", "a1:2,a2:2", "-genv", "X", "x,1",
                "-genv", "MPJ_INIT_TIMINGS", "true", "-wdir", wdir.toString()).timeout(90)
                .run(FlagsProbeProgram.class);
        DelegatedJobs.assertRanOnTwoNodesWith(r, 4, "x,1", wdir);
        // Hydra's own locality variables: two ranks on each host
        assertEquals(2, r.linesContaining(" local 0 of 2"), r::toString);
        assertEquals(2, r.linesContaining(" local 1 of 2"), r::toString);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }

    @Test
    void sigtermToMpjrunStopsAJobRunningThroughHydra() throws Exception {
        DelegatedJobs.assertSigtermStopsTheJob(Job.np(4).launcherOptions("-launcher", "fork", "-hosts", "a1:2,a2:2"), 4);
    }

    /**
     * Loopback set by hand across two emulated nodes: their ranks' cards say so, so they compare host names, find
     * one host, where loopback works, and run.
     */
    @Test
    void loopbackAcrossEmulatedNodesOfOneHostStillRuns() throws Exception {
        List<String> cmd = mpiexec("fake-nodes", 4, RequestsProgram.class);
        cmd.addAll(1, List.of("-genv", "MPJ_TCP_HOST", "127.0.0.1"));
        Commands.Output o = Commands.run(cmd, Commands.repoRoot(), 90);
        assertEquals(0, o.exitCode(), o::text);
        assertEquals(4, o.text().lines().filter(l -> l.contains("requests OK rank")).count(), o::text);
    }

    /**
     * Under Hydra the ranks answer SIGUSR1 with their wait report as under mpjrun; here on two emulated nodes,
     * whose ranks reach each other over TCP at the address chosen across hosts.
     */
    @Test
    void ranksAnswerSigusr1WithWhereTheyWait() throws Exception {
        Path log = Files.createTempFile("mpj-hydra-wait", ".log");
        Process hydra = new ProcessBuilder(mpiexec("two-nodes", 2, HangingProgram.class, "recv"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            awaitLog(log, text -> text.lines().filter(l -> l.startsWith("ready rank")).count() == 2);
            Thread.sleep(300); // from "ready" into the wait
            List<String> ranks = hydra.descendants()
                    .filter(h -> h.info().commandLine().orElse("").contains(HangingProgram.class.getName()))
                    .map(h -> Long.toString(h.pid())).toList();
            assertEquals(2, ranks.size(), ranks::toString);
            List<String> kill = new ArrayList<>(List.of("kill", "-USR1"));
            kill.addAll(ranks);
            assertEquals(0, new ProcessBuilder(kill).start().waitFor());
            awaitLog(log, text -> text.contains("rank 1 waits in Recv(source=0, tag=99, COMM_WORLD) for ")
                    && text.contains("rank 0 waits in MPI.Finalize for "));
            assertTrue(hydra.isAlive(), "the job ended after the report");
        } finally {
            hydra.descendants().forEach(ProcessHandle::destroyForcibly);
            hydra.destroyForcibly().waitFor();
            Files.deleteIfExists(log);
        }
    }

    private static void awaitLog(Path log, Predicate<String> done) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        String text;
        while (!done.test(text = Files.readString(log))) {
            assertTrue(System.nanoTime() < deadline, "not in the output:\n" + text);
            Thread.sleep(50);
        }
    }
}
