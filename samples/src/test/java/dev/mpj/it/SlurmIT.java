package dev.mpj.it;

import dev.mpj.samples.Hello;
import dev.mpj.samples.bench.InitBench;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The same Java programs under Slurm: {@code srun -N 2 -n 4 --mpi=pmi2} on the two emulated nodes that
 * {@code .ci/slurm/start} runs on this machine. Slurm places ranks 0-2 on n1 and rank 3 on n2, so each job has
 * shared memory inside a node and TCP between the nodes. How such jobs fail is in {@link FaultsIT}. And mpjrun
 * inside an allocation, which runs the job through srun.
 */
@Timeout(120)
@Tag("slurm")
class SlurmIT {
    private static final int NODES = 2;
    private static final int NP = 4;
    /** Where {@code .ci/slurm/start} writes the configuration when SLURM_CONF is not set. */
    private static final Path DEFAULT_CONF = Path.of("/tmp/mpj-slurm/slurm.conf");

    private static String slurmConf;

    /**
     * Node segments of these jobs: Slurm does not remove what a killed job leaves in /dev/shm, and job ids start
     * again from 1 with a fresh cluster, so a later job of the same id would find the old segment.
     */
    @TempDir
    static Path segmentDir;

    @BeforeAll
    static void slurm() throws Exception {
        String conf = System.getenv("SLURM_CONF");
        if (conf == null && Files.isReadable(DEFAULT_CONF)) {
            conf = DEFAULT_CONF.toString();
        }
        slurmConf = conf;
        String missing = whyUnavailable();
        if (missing != null && "true".equals(System.getenv("CI"))) {
            throw new AssertionError(missing + ": CI must start Slurm with .ci/slurm/start");
        }
        assumeTrue(missing == null, () -> missing + " (start one with .ci/slurm/start)");
    }

    /** Null when srun exists and sinfo shows two idle nodes; else what is missing. */
    private static String whyUnavailable() throws IOException, InterruptedException {
        if (!Files.isExecutable(Path.of("/usr/bin/srun"))) {
            return "srun is not installed";
        }
        Commands.Output o = Commands.run(withConf(List.of("sinfo", "-h", "-N", "-t", "idle", "-o", "%N")),
                Commands.repoRoot(), 20);
        long idle = o.text().lines().map(String::strip).filter(l -> !l.isEmpty()).distinct().count();
        return o.exitCode() == 0 && idle >= NODES ? null : "no Slurm cluster with " + NODES + " idle nodes: "
                + o.text().strip();
    }

    private static List<String> withConf(List<String> command) {
        List<String> cmd = new ArrayList<>();
        if (slurmConf != null) {
            cmd.addAll(List.of("env", "SLURM_CONF=" + slurmConf));
        }
        cmd.addAll(command);
        return cmd;
    }

    /** {@code srun -N 2 -n 4 --mpi=pmi2 env [env …] java <small JVM> <exports> -cp … main args}. */
    static List<String> srun(List<String> env, String marker, Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>(List.of("srun", "-N", Integer.toString(NODES), "-n", Integer.toString(NP),
                "--mpi=pmi2"));
        cmd.add("env");
        cmd.addAll(env);
        cmd.add(Commands.java());
        cmd.addAll(List.of(Job.RANK_JVM_OPTS.split(" ")));
        cmd.addAll(HydraIT.ADD_EXPORTS);
        cmd.add("-D" + marker);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(List.of(args));
        return withConf(cmd);
    }

    private static Commands.Output run(List<String> env, String marker, Class<?> main, String... args)
            throws IOException, InterruptedException {
        List<String> withSegments = new ArrayList<>(env);
        withSegments.add("MPJ_SEGMENT_DIR=" + segmentDir);
        return Commands.run(srun(withSegments, marker, main, args), Commands.repoRoot(), 90);
    }

    private static String marker() {
        return "mpj.it.job=" + UUID.randomUUID();
    }

    @Test
    void helloRunsFourRanksOnTwoNodes() throws Exception {
        Commands.Output o = run(List.of("MPJ_INIT_TIMINGS=true"), marker(), Hello.class);
        assertEquals(0, o.exitCode(), o::text);
        for (int r = 0; r < NP; r++) {
            assertTrue(o.text().contains("Hello from rank " + r + " of " + NP + " on "), o::text);
        }
        for (int node = 0; node < NODES; node++) {
            assertTrue(o.text().contains("on node " + node + " of " + NODES + " "), o::text);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"roots", "simple", "shm", "ring"})
    void initbenchReportsTheExchangeCountersOfEachStrategy(String exchange) throws Exception {
        Commands.Output o = run(List.of(), marker(), InitBench.class, "--exchange", exchange);
        assertEquals(0, o.exitCode(), o::text);
        assertTrue(o.text().contains("nprocs: " + NP + ", min: "), o::text);
        assertTrue(o.text().contains("nodes: " + NODES + ", exchange: " + exchange), o::text);
        String counts = switch (exchange) {
            case "simple" -> "puts=" + NP + " gets=" + NP * NP;
            case "shm" -> "puts=" + NP + " gets=" + NODES * NP;
            case "ring" -> "puts=0 gets=0";
            default -> "puts=" + NODES + " gets=" + NODES * (NODES - 1);
        };
        assertTrue(o.text().contains("exchange PMI operations of the job: " + counts + " "), o::text);
    }

    /** Slurm's PMI-2 on two nodes: the non-blocking fence keeps a blocking one's semantics. */
    @Test
    void nonBlockingFenceRefusesEarlyGetsAndKeepsTheCounts() throws Exception {
        Commands.Output o = run(List.of(), marker(), FenceProbeProgram.class);
        assertEquals(0, o.exitCode(), o::text);
        FenceProbes.assertEveryRankKeptPmiSemantics(o.text(), NP);
    }

    /** Slurm's own PMIX_Ring: one table on every rank, no put, get or fence, one ring per rank; messages flow. */
    @Test
    void ringExchangeBuildsTheTableThroughSlurmsPmixRing() throws Exception {
        Commands.Output o = run(List.of("MPJ_ADDRESS_EXCHANGE=ring"), marker(), CardTableProgram.class);
        assertEquals(0, o.exitCode(), o::text);
        assertEquals(NP, o.text().lines().filter(l -> l.contains("cardtable OK rank")).count(), o::text);
        assertEquals(new CardTables.Operations(0, 0, 0, NP, 0), CardTables.assertOneTable(o.text(), NP, "ring"));
    }

    /** {@code salloc -N 2 -n 4 mpjrun -np 4 …}: mpjrun hands the job to srun, which spreads it over n1 and n2. */
    @Test
    void mpjrunInsideAnAllocationRunsTheJobThroughSrunOnBothNodes(@TempDir Path dir) throws Exception {
        Path wdir = dir.toRealPath();
        Job.Result r = inAllocation().launcherOptions("-env", "X", "x,1", "-env", "MPJ_INIT_TIMINGS", "true",
                        "-env", "MPJ_SEGMENT_DIR", segmentDir.toString(), "-wdir", wdir.toString())
                .timeout(90).run(FlagsProbeProgram.class);
        DelegatedJobs.assertRanOnTwoNodesWith(r, NP, "x,1", wdir);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }

    /** SIGTERM to mpjrun inside the allocation: it stops srun, which cancels the step on both nodes. */
    @Test
    void sigtermToMpjrunInsideAnAllocationStopsTheJobOnBothNodes() throws Exception {
        DelegatedJobs.assertSigtermStopsTheJob(inAllocation().launcherOptions("-env", "MPJ_SEGMENT_DIR",
                segmentDir.toString()), NP);
    }

    /** mpjrun under {@code salloc -N 2 -n 4}. */
    private static Job inAllocation() {
        return Job.np(NP).under(withConf(List.of("salloc", "-N", Integer.toString(NODES), "-n",
                Integer.toString(NP))).toArray(String[]::new));
    }
}
