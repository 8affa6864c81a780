package dev.mpj.it;

import dev.mpj.samples.Hello;
import dev.mpj.samples.Ring;
import dev.mpj.samples.bench.InitBench;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The same Java programs under Open MPI's {@code mpirun}, a PMIx server (Debian's Open MPI 4.1.4 with PMIx
 * 4.2.2), with the mpj-pmix client on Java 22 or later: on one node, on two fake nodes, and over TCP only.
 * The rank JVMs are the test's own JVM when it is Java 22+, else the JDK named by {@code -Dmpj.test.jdk22}
 * (default {@value #DEFAULT_JDK22}); the mpj-pmix classes exist only when the build ran on Java 22+. And on
 * Java 17 a rank under {@code mpirun} fails in MPI.Init naming PMIx, never running as a singleton.
 */
@Timeout(120)
@Tag("pmix")
class PmixIT {
    static final String DEFAULT_JDK22 = "/usr/lib/jvm/temurin-25-jdk-amd64";
    static final String DEFAULT_JDK17 = "/usr/lib/jvm/java-17-openjdk-amd64";
    static final String MPIRUN = "/usr/bin/mpirun.openmpi";
    static final String LIBPMIX = "/usr/lib/x86_64-linux-gnu/libpmix.so.2";

    /** {@code mpirun -n np java … main args}, the job's environment passed with {@code -x}. */
    private static List<String> mpirun(String java, int np, List<String> env, Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>(List.of(MPIRUN, "--oversubscribe", "--allow-run-as-root"));
        for (String variable : env) {
            cmd.addAll(List.of("-x", variable));
        }
        cmd.addAll(List.of("-n", Integer.toString(np)));
        cmd.addAll(rank(java, main, args));
        return cmd;
    }

    /** {@code java <small JVM> <flags> -cp … main args}: one rank, as a manager starts it. */
    private static List<String> rank(String java, Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(List.of(Job.RANK_JVM_OPTS.split(" ")));
        cmd.addAll(HydraIT.ADD_EXPORTS);
        if (version(java) >= 22) {
            cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** The job's environment in each placement: one node, two fake nodes, TCP only. */
    private static List<String> placement(String name) {
        return switch (name) {
            case "one-node" -> List.of();
            case "two-fake-nodes" -> List.of("MPJ_FAKE_NODES=2");
            case "tcp" -> List.of("MPJ_TRANSPORTS=tcp");
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"one-node", "two-fake-nodes", "tcp"})
    void helloPrintsOneLinePerRank(String placement) throws Exception {
        Commands.Output o = run(mpirun(pmixJava(), 4, placement(placement), Hello.class));
        assertEquals(0, o.exitCode(), o::text);
        for (int r = 0; r < 4; r++) {
            assertTrue(o.text().contains("Hello from rank " + r + " of 4 on "), o::text);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"one-node", "two-fake-nodes", "tcp"})
    void ringPassesTheTokenRoundEveryRank(String placement) throws Exception {
        Commands.Output o = run(mpirun(pmixJava(), 4, placement(placement), Ring.class, "5"));
        assertEquals(0, o.exitCode(), o::text);
        assertTrue(o.text().contains("token = 20 (expected 20)"), o::text);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"one-node", "two-fake-nodes", "tcp"})
    void pointToPointSuitePasses(String placement) throws Exception {
        Commands.Output o = run(mpirun(pmixJava(), 4, placement(placement), RequestsProgram.class));
        assertEquals(0, o.exitCode(), o::text);
        assertEquals(4, o.text().lines().filter(l -> l.contains("requests OK rank")).count(), o::text);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"one-node", "two-fake-nodes", "tcp"})
    void collectivesSuitePasses(String placement) throws Exception {
        Commands.Output o = run(mpirun(pmixJava(), 4, placement(placement), CollectivesProgram.class));
        assertEquals(0, o.exitCode(), o::text);
        assertEquals(4, o.text().lines().filter(l -> l.contains("collectives OK rank")).count(), o::text);
    }

    /** The three exchanges over the PMIx client, on two fake nodes, with the PMI-1 formula counts. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"simple,'puts=4 gets=16'", "shm,'puts=4 gets=8'", "roots,'puts=2 gets=2'"})
    void everyExchangeRunsOverPmix(String exchange, String counts) throws Exception {
        Commands.Output o = run(mpirun(pmixJava(), 4, List.of("MPJ_FAKE_NODES=2", "MPJ_INIT_TIMINGS=true"),
                InitBench.class, "--exchange", exchange));
        assertEquals(0, o.exitCode(), o::text);
        assertTrue(o.text().contains("nodes: 2, exchange: " + exchange), o::text);
        assertTrue(o.text().contains("exchange PMI operations of the job: " + counts + " "), o::text);
        assertEquals(4, o.text().lines().filter(l -> l.contains(" pmi(pmix) ")).count(), o::text);
    }

    /**
     * Under Slurm's pmix plugin ({@code srun --mpi=pmix}), on one emulated node of the local Slurm: two slurmd on
     * one host would both make the plugin's directory in /tmp for the same step, so two nodes cannot be emulated.
     * Skipped, with the reason, when no Slurm runs here or it has no pmix plugin.
     */
    @Test
    void helloUnderSrunWithThePmixPlugin() throws Exception {
        String java = pmixJava();
        String conf = System.getenv("SLURM_CONF") != null ? System.getenv("SLURM_CONF") : "/tmp/mpj-slurm/slurm.conf";
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/srun")) && Files.isReadable(Path.of(conf)),
                "no local Slurm (start one with .ci/slurm/start)");
        Commands.Output plugins = run(List.of("env", "SLURM_CONF=" + conf, "srun", "--mpi=list"));
        assumeTrue(plugins.text().lines().anyMatch(l -> l.strip().equals("pmix")),
                "the local Slurm has no pmix plugin: " + plugins.text().strip());
        List<String> cmd = new ArrayList<>(List.of("env", "SLURM_CONF=" + conf, "srun", "-N", "1", "-n", "2",
                "--mpi=pmix"));
        cmd.addAll(rank(java, Hello.class));
        Commands.Output o = run(cmd);
        assertEquals(0, o.exitCode(), o::text);
        for (int r = 0; r < 2; r++) {
            assertTrue(o.text().contains("Hello from rank " + r + " of 2 on "), o::text);
        }
    }

    /** Without PMIx support (Java 17) a rank under mpirun fails in MPI.Init saying so, never as a singleton. */
    @Test
    void onJava17ARankUnderMpirunFailsNamingPmix() throws Exception {
        requireMpirun();
        String java = Runtime.version().feature() < 22 ? Commands.java()
                : Path.of(System.getProperty("mpj.test.jdk17", DEFAULT_JDK17), "bin", "java").toString();
        assumeTrue(Files.isExecutable(Path.of(java)), "no Java 17 at " + java + " (set -Dmpj.test.jdk17)");
        Commands.Output o = run(mpirun(java, 2, List.of(), Hello.class));
        assertNotEquals(0, o.exitCode(), o::text);
        assertTrue(o.text().contains("MPI.Init failed: this process was started by a PMIx process manager"), o::text);
        assertTrue(o.text().contains("needs Java 22 or later"), o::text);
        assertTrue(o.text().contains("mpjrun, MPICH's mpiexec (Hydra) or srun --mpi=pmi2"), o::text);
        assertTrue(!o.text().contains("Hello from rank"), o::text);
    }

    private static Commands.Output run(List<String> command) throws Exception {
        return Commands.run(command, Commands.repoRoot(), 100);
    }

    /**
     * The java binary for PMIx ranks: this JVM when it is Java 22+, else {@code -Dmpj.test.jdk22}; skips (with
     * the reason) when there is none, when mpirun or libpmix is missing, or when mpj-pmix was built on Java 17.
     */
    private static String pmixJava() {
        requireMpirun();
        assumeTrue(Files.exists(Path.of(LIBPMIX)), LIBPMIX + " is missing (apt-get install libpmix2)");
        assumeTrue(PmixIT.class.getClassLoader().getResource("dev/mpj/pmix/PmixClient.class") != null,
                "mpj-pmix has no classes: it compiles only on Java 22+ (JAVA_HOME=<JDK 22+> mvn verify)");
        String java = Runtime.version().feature() >= 22 ? Commands.java()
                : Path.of(System.getProperty("mpj.test.jdk22", DEFAULT_JDK22), "bin", "java").toString();
        assumeTrue(Files.isExecutable(Path.of(java)), "no Java 22+ at " + java + " (set -Dmpj.test.jdk22)");
        return java;
    }

    /** Skips when Open MPI is not installed, except in CI, where its absence is a failure. */
    private static void requireMpirun() {
        boolean present = Files.isExecutable(Path.of(MPIRUN));
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new AssertionError(MPIRUN + " is missing: CI must install Debian's openmpi-bin");
        }
        assumeTrue(present, MPIRUN + " is not installed (apt-get install openmpi-bin libpmix2)");
    }

    /** The feature version of the JDK whose java binary is {@code java}: its directory's release file. */
    private static int version(String java) {
        if (Path.of(java).equals(Path.of(Commands.java()))) {
            return Runtime.version().feature();
        }
        try {
            for (String line : Files.readAllLines(Path.of(java).getParent().getParent().resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    return Integer.parseInt(v.split("[.+-]")[0]);
                }
            }
        } catch (java.io.IOException | NumberFormatException e) {
            // unknown: treat as old, so no flag it would refuse is passed
        }
        return 17;
    }
}
