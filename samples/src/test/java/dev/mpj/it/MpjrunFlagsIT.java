package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mpjrun's mpiexec- and mpirun-style flags in a real job, and {@code --version} of the packaged script. */
@Timeout(120)
@Tag("multi-jvm")
class MpjrunFlagsIT {
    @Test
    void genvXWdirAndPpnReachEveryRank(@TempDir Path dir) throws Exception {
        Path wdir = dir.toRealPath();
        Job.Result r = Job.np(4).launcherOptions("-genv", "X", "1", "-x", "Y=2", "-wdir", wdir.toString(),
                "-ppn", "2", "--oversubscribe", "-dev", "niodev").timeout(90).run(FlagsProbeProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        for (int rank = 0; rank < 4; rank++) {
            // -ppn 2: ranks 0 and 1 on the first pretend node, 2 and 3 on the second
            String expected = "rank " + rank + " X=1 Y=2 cwd=" + wdir + " local " + rank % 2 + " of 2";
            assertEquals(1, r.linesContaining(expected), () -> expected + "\n" + r);
        }
        assertTrue(r.err().contains("mpjrun: -dev niodev ignored: mpj chooses its transports itself"), r::toString);
        assertFalse(r.err().contains("expect slow progress"), r::toString);
    }

    /** Without the manager the job needs on the PATH, mpjrun says what to install instead of starting anything. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "SLURM_JOB_ID=7 | '' | srun is not on the PATH: install Slurm's client (Debian: apt-get install slurm-client)",
            "X=1 | -hosts a1:2,a2:2 | mpiexec.hydra is not on the PATH: install MPICH (Debian: apt-get install mpich)"})
    void aMissingManagerIsNamedWithWhatToInstall(String variable, String options, String message, @TempDir Path path) {
        String[] nameValue = variable.split("=");
        Job.Result r = Job.np(4).env(nameValue[0], nameValue[1]).env("PATH", path.toString())
                .launcherOptions(options.isEmpty() ? new String[0] : options.split(" ")).timeout(60)
                .run(FlagsProbeProgram.class);
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.err().contains(message), r::toString);
        assertEquals(1, r.err().lines().count(), r::toString);
    }

    /**
     * The ranks run the parallel collector, and the rank of a job of one on Java 17 G1 (decision 0105), unless the
     * user's flags name one, in MPJ_JVM_OPTS or JAVA_TOOL_OPTIONS, which mpjrun then leaves to choose it (two
     * collectors would stop the JVM). {@code ALONE} stands for the job of one's collector on the ranks' Java, this one.
     */
    @ParameterizedTest(name = "np {0}: {1}={2}")
    @CsvSource(delimiter = '|', value = {
            "2 | MPJ_JVM_OPTS      |                    | PS MarkSweep,PS Scavenge",
            "1 | MPJ_JVM_OPTS      |                    | ALONE",
            "2 | MPJ_JVM_OPTS      | -XX:+UseG1GC       | G1 Old Generation,G1 Young Generation",
            "1 | MPJ_JVM_OPTS      | -XX:+UseParallelGC | PS MarkSweep,PS Scavenge",
            "2 | JAVA_TOOL_OPTIONS | -XX:+UseSerialGC   | Copy,MarkSweepCompact"})
    void ranksRunTheParallelCollectorAJobOfOneG1UnlessTheUserNamesOne(int np, String variable, String flags,
                                                                       String collectors) {
        Job job = Job.np(np).timeout(90);
        String named = flags == null ? "" : flags;
        if (variable.equals("MPJ_JVM_OPTS")) {
            job.rankJvmOptions(Job.RANK_JVM_OPTS + " " + named);
        } else {
            job.env(variable, named);
        }
        if (collectors.equals("ALONE")) {
            collectors = Runtime.version().feature() <= 17 ? "G1 Old Generation,G1 Young Generation"
                    : "PS MarkSweep,PS Scavenge";
        }
        Job.Result r = job.run(CollectorProbeProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        for (int rank = 0; rank < np; rank++) {
            String expected = "rank " + rank + " collectors " + collectors;
            assertEquals(1, r.linesContaining(expected), () -> expected + "\n" + r);
        }
    }

    /**
     * The ranks keep HotSpot's JIT thresholds, also when the retired {@code MPJ_EARLY_JIT} is still set (decision
     * 0065): no per-method threshold reaches them, and the setting is ignored without a word.
     */
    @ParameterizedTest(name = "MPJ_EARLY_JIT={0}")
    @ValueSource(strings = {"true", ""})
    void ranksKeepHotSpotsJitThresholds(String early) {
        Job job = Job.np(2).timeout(90).rankJvmOptions("-Xmx64m -Xshare:auto");
        if (!early.isEmpty()) {
            job.env("MPJ_EARLY_JIT", early);
        }
        Job.Result r = job.run(JitProbeProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        for (int rank = 0; rank < 2; rank++) {
            String line = "rank " + rank + " of 2 scaled none";
            assertEquals(1, r.linesContaining(line), () -> line + "\n" + r);
        }
        assertEquals(2, r.out().lines().filter(l -> !l.isBlank()).count(), r::toString);
    }

    @Test
    void versionNamesMpjAndJava() throws Exception {
        Commands.Output o = Commands.run(List.of(Commands.repoRoot().resolve("mpjrun").toString(), "--version"),
                Commands.repoRoot(), 60);
        assertEquals(0, o.exitCode(), o::text);
        assertTrue(o.text().matches("(?s)mpj \\d+\\.\\d+\\.\\d+\\S*\nJava \\d+\\S* \\(.*\\)\n"), o::text);
    }
}
