package dev.mpj.launcher;

import dev.mpj.runtime.pmi.wire.PmiVariables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RankCommandTest {
    private static final String LAUNCHER_CP = "/opt/mpj/runtime.jar";

    @Test
    void ranksRunThisJavaWithTheRequiredFlagThenMpjJvmOpts() throws UsageException {
        List<String> cmd = command(options(Map.of("MPJ_JVM_OPTS", "-Xmx64m -Dk=v"), "-np", "2", "org.x.Main", "a"));
        assertEquals(Path.of(System.getProperty("java.home"), "bin", "java").toString(), cmd.get(0));
        List<String> expected = new ArrayList<>(RankCommand.REQUIRED_JVM_FLAGS);
        expected.addAll(RankCollector.flags(2, List.of(), System.getenv()));
                expected.addAll(List.of("-Xmx64m", "-Dk=v", "-cp", LAUNCHER_CP, "org.x.Main", "a"));
        assertEquals(expected, cmd.subList(1, cmd.size()));
    }

    @Test
    void ranksGetTheParallelCollectorUnlessMpjJvmOptsOrAJavaVariableNamesOne() {
        List<String> parallel = List.of("-XX:+UseParallelGC");
        assertEquals(parallel, RankCollector.flags(2, List.of("-Xmx64m"), Map.of()));
        assertEquals(parallel, RankCollector.flags(2, List.of("-XX:+UseGCOverheadLimit"), Map.of("X", "-XX:+UseZGC")),
                "a flag about collection that names no collector, or another variable, leaves the choice to mpjrun");
        assertEquals(List.of(), RankCollector.flags(2, List.of("-XX:+UseG1GC"), Map.of()));
        assertEquals(List.of(), RankCollector.flags(2, List.of(), Map.of("JAVA_TOOL_OPTIONS", "-Xss1m -XX:+UseZGC")));
        assertEquals(List.of(), RankCollector.flags(2, List.of(), Map.of("JDK_JAVA_OPTIONS", "-XX:+UseSerialGC")));
    }

    @Test
    void onlyAnOnOrOffFlagOfAKnownCollectorNamesOne() {
        for (String flag : new String[]{"-XX:+UseG1GC", "-XX:-UseParallelGC", "-XX:+UseParallelOldGC", "-XX:+UseZGC",
                "-XX:+UseShenandoahGC", "-XX:+UseEpsilonGC", "-XX:+UseConcMarkSweepGC", "-XX:+UseSerialGC"}) {
            assertTrue(RankCollector.namesCollector(flag), flag);
        }
        for (String flag : new String[]{"-XX:+UseGCOverheadLimit", "-XX:+UseFooGC", "-XX:UseG1GC", "-XX:+UseGC",
                "-XX:+UseG1GCx", "x-XX:+UseG1GC", "-XX:+UseG1", "-Xmx64m"}) {
            assertFalse(RankCollector.namesCollector(flag), flag);
        }
    }

    @Test
    void theRankOfAJobOfOneGetsG1OnJava17UnlessTheUserNamesACollector() throws UsageException {
        assertEquals(List.of("-XX:+UseG1GC"), RankCollector.flags(1, 17, List.of("-Xmx64m"), Map.of()));
        assertEquals(List.of("-XX:+UseParallelGC"), RankCollector.flags(1, 25, List.of("-Xmx64m"), Map.of()),
                "later Javas map the archive's heap under the parallel collector too");
        assertEquals(List.of("-XX:+UseParallelGC"), RankCollector.flags(2, 17, List.of(), Map.of()));
        assertEquals(List.of(), RankCollector.flags(1, 17, List.of("-XX:+UseParallelGC"), Map.of()));
        List<String> one = command(options(Map.of(), "-np", "1", "org.x.Main"));
        assertEquals(RankCollector.flags(1, Runtime.version().feature(), List.of(), System.getenv()),
                one.stream().filter(f -> f.matches("-XX:\\+Use\\w+GC")).toList(), one::toString);
        List<String> two = command(options(Map.of(), "-np", "2", "org.x.Main"));
        assertTrue(two.contains("-XX:+UseParallelGC") && !two.contains("-XX:+UseG1GC"), two::toString);
    }

    @Test
    void theRanksKeepHotSpotsJitThresholdsEvenWhenTheRetiredEarlyJitIsAskedFor() throws UsageException {
        List<List<String>> commands = List.of(
                command(options(Map.of(), "-np", "1", "org.x.Main")),
                command(options(Map.of("MPJ_JVM_OPTS", "-Dmpj.earlyJit=true"), "-np", "1", "org.x.Main")),
                command(options(Map.of(), "-np", "1", "-env", "MPJ_EARLY_JIT", "true", "org.x.Main")));
        for (List<String> cmd : commands) {
            assertFalse(cmd.stream().anyMatch(f -> f.startsWith("-XX:CompileCommand")), cmd::toString);
        }
    }

    @Test
    void aCollectorNamedInAnEnvVariableForTheRanksIsTheirs() throws UsageException {
        List<String> cmd = command(options(Map.of(), "-np", "1", "-env", "JAVA_TOOL_OPTIONS", "-XX:+UseSerialGC",
                "org.x.Main"));
        assertFalse(cmd.contains("-XX:+UseParallelGC"), cmd::toString);
    }

    @Test
    void unsafeIsAllowedOutrightFromJava23OnAndTheInternalPackageAlwaysExported() {
        List<String> java17 = new ArrayList<>(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"));
        java17.addAll(JvmStartFlags.FLAGS);
        assertEquals(java17, RankCommand.requiredJvmFlags(17));
        List<String> java25 = new ArrayList<>(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow"));
        java25.addAll(JvmStartFlags.FLAGS);
        assertEquals(java25, RankCommand.requiredJvmFlags(25));
    }

    @Test
    void launcherJarsLeadTheClassPathThenTheUsersThenTheLaunchersDirectories() throws UsageException {
        RankCommand c = RankCommand.of(options(Map.of(), "-np", "1", "-cp", "app/classes", "org.x.Main"),
                String.join(File.pathSeparator, "/opt/mpj/classes", LAUNCHER_CP, "/opt/lib/netty.jar"),
                "127.0.0.1:1");
        List<String> cmd = c.commandLine();
        assertEquals(String.join(File.pathSeparator, LAUNCHER_CP, "/opt/lib/netty.jar", "app/classes",
                "/opt/mpj/classes"), cmd.get(cmd.indexOf("-cp") + 1));
    }

    @Test
    void wdirStartsRanksThereWithTheClassPathResolvedFromTheLaunchersDirectory(@TempDir Path dir)
            throws UsageException {
        RankCommand c = RankCommand.of(options(Map.of(), "-np", "1", "-wdir", dir.toString(), "-cp", "app/classes",
                "org.x.Main"), LAUNCHER_CP, "127.0.0.1:1");
        ProcessBuilder pb = c.processBuilder(0);
        assertEquals(dir.toFile(), pb.directory());
        List<String> cmd = pb.command();
        assertEquals(String.join(File.pathSeparator, LAUNCHER_CP, Path.of("app/classes").toAbsolutePath().toString()),
                cmd.get(cmd.indexOf("-cp") + 1));
        assertEquals(null, RankCommand.of(options(Map.of(), "-np", "1", "org.x.Main"), LAUNCHER_CP, "127.0.0.1:1")
                .processBuilder(0).directory());
    }

    @Test
    void rankFlagsFollowTheRequiredFlagsAndPrecedeMpjJvmOptsForThatRankOnly() throws UsageException {
        RankCommand c = RankCommand.of(options(Map.of("MPJ_JVM_OPTS", "-Xshare:off"), "-np", "2", "org.x.Main"),
                LAUNCHER_CP, "127.0.0.1:1", null, rank -> rank == 1 ? List.of("-Dfor.one=yes") : List.of());
        List<String> one = c.processBuilder(1).command();
        int required = RankCommand.REQUIRED_JVM_FLAGS.size();
        assertEquals(RankCommand.REQUIRED_JVM_FLAGS, one.subList(1, 1 + required));
        List<String> expected = new ArrayList<>(List.of("-Dfor.one=yes"));
        expected.addAll(RankCollector.flags(2, List.of(), System.getenv()));
                expected.addAll(List.of("-Xshare:off", "-cp"));
        assertEquals(expected, one.subList(1 + required, 1 + required + expected.size()));
        assertEquals(c.commandLine(), c.processBuilder(0).command());
    }

    /** A job of one's rank with its own archive maps no segment: no export, its flags right after the others. */
    @Test
    void aRankThatMapsNoSegmentRunsWithoutTheExport() throws UsageException {
        RankCommand c = RankCommand.of(options(Map.of(), "-np", "1", "org.x.Main"), LAUNCHER_CP, "127.0.0.1:1", null,
                new DirectStartArchive.WithoutSegment(List.of("-Dmine=yes")));
        List<String> cmd = c.commandLine(0);
        assertFalse(cmd.contains("--add-exports"), cmd::toString);
        assertFalse(cmd.contains("java.base/jdk.internal.misc=ALL-UNNAMED"), cmd::toString);
        List<String> required = RankCommand.requiredJvmFlags(new DirectStartArchive.WithoutSegment(List.of()));
        assertEquals(RankCommand.REQUIRED_JVM_FLAGS.size() - 2, required.size());
        assertEquals(required, cmd.subList(1, 1 + required.size()));
        assertEquals("-Dmine=yes", cmd.get(1 + required.size()));
    }

    @Test
    void jarRunsTheMainClassOfItsManifestWithTheJarAfterTheLaunchersJars(@TempDir Path dir) throws Exception {
        Path jar = jar(dir.resolve("app.jar"), "org.app.Main");
        List<String> cmd = command(options(Map.of(), "-np", "1", "-jar", jar.toString(), "in.txt"));
        assertEquals(LAUNCHER_CP + File.pathSeparator + jar, cmd.get(cmd.indexOf("-cp") + 1));
        assertEquals(List.of("org.app.Main", "in.txt"), cmd.subList(cmd.size() - 2, cmd.size()));
    }

    @Test
    void jarWithoutMainClassIsAUsageError(@TempDir Path dir) throws Exception {
        Path jar = jar(dir.resolve("lib.jar"), null);
        UsageException e = assertThrows(UsageException.class,
                () -> command(options(Map.of(), "-np", "1", "-jar", jar.toString())));
        assertTrue(e.getMessage().contains("names no Main-Class"), e.getMessage());
    }

    @Test
    void missingJarIsAUsageError(@TempDir Path dir) {
        UsageException e = assertThrows(UsageException.class,
                () -> command(options(Map.of(), "-np", "1", "-jar", dir.resolve("none.jar").toString())));
        assertTrue(e.getMessage().startsWith("cannot read the jar"), e.getMessage());
    }

    @Test
    void eachRankLearnsPortModePmiAndItsPlaceOnItsNode() throws UsageException {
        RankCommand c = RankCommand.of(options(Map.of(), "-np", "4", "--fake-nodes", "2", "org.x.Main"),
                LAUNCHER_CP, "127.0.0.1:4242");
        Map<String, String> v = c.variables(3);
        assertEquals("127.0.0.1:4242", v.get("PMI_PORT"));
        assertEquals("3", v.get("PMI_ID"));
        assertEquals("3", v.get("PMI_RANK"));
        assertEquals("4", v.get("PMI_SIZE"));
        assertEquals("1", v.get("MPI_LOCALRANKID"));
        assertEquals("2", v.get("MPI_LOCALNRANKS"));
        assertEquals(Long.toString(ProcessHandle.current().pid()), v.get("MPJ_LAUNCHER_PID"));
    }

    @Test
    void envOptionsReachEveryRankAndWinOverTheLaunchersVariables() throws UsageException {
        RankCommand c = RankCommand.of(options(Map.of(), "-np", "2", "-env", "MPJ_VERBOSE", "true",
                "-env", "MPI_LOCALNRANKS", "9", "org.x.Main"), LAUNCHER_CP, "127.0.0.1:1");
        Map<String, String> env = c.processBuilder(1).environment();
        assertEquals("true", env.get("MPJ_VERBOSE"));
        assertEquals("9", env.get("MPI_LOCALNRANKS"));
        assertEquals("1", env.get("PMI_ID"));
    }

    @Test
    void everyRankGetsTheJobSecretWhichNoEnvOptionReplaces() throws UsageException {
        RankCommand c = RankCommand.of(options(Map.of(), "-np", "2", "-env", PmiVariables.SECRET, "guess",
                "org.x.Main"), LAUNCHER_CP, "127.0.0.1:1", "0123abcd", RankJvmFlags.NONE);
        assertEquals("0123abcd", c.processBuilder(0).environment().get(PmiVariables.SECRET));
        assertEquals("0123abcd", c.processBuilder(1).environment().get(PmiVariables.SECRET));
    }

    @Test
    void aMainClassOnTheLaunchersOwnClassPathIsFoundAndOneMissingIsAUsageError() throws UsageException {
        String own = System.getProperty("java.class.path");
        RankCommand.of(options(Map.of(), "-np", "2", MpjRun.class.getName()), own, "127.0.0.1:1").requireMainClass();
        UsageException missing = assertThrows(UsageException.class, () -> RankCommand.of(
                options(Map.of(), "-np", "2", "org.nowhere.NoSuchMain"), own, "127.0.0.1:1").requireMainClass());
        assertTrue(missing.getMessage().contains("no class org.nowhere.NoSuchMain"), missing.getMessage());
        UsageException jdk = assertThrows(UsageException.class, () -> RankCommand.of(
                options(Map.of(), "-np", "2", Thread.class.getName()), own, "127.0.0.1:1").requireMainClass());
        assertTrue(jdk.getMessage().contains("no class java.lang.Thread"), jdk.getMessage());
    }

    @Test
    void aClassTheLauncherSeesIsNotTakenAsFoundWhenTheRanksClassPathLacksItsEntries(@TempDir Path dir) {
        // the launcher's own loader finds MpjRun, but ranks given only an empty directory would not
        UsageException e = assertThrows(UsageException.class, () -> RankCommand.of(
                options(Map.of(), "-np", "2", MpjRun.class.getName()), dir.toString(), "127.0.0.1:1")
                .requireMainClass());
        assertTrue(e.getMessage().contains("no class " + MpjRun.class.getName()), e.getMessage());
    }

    private static LaunchOptions options(Map<String, String> env, String... args) throws UsageException {
        return LaunchOptions.parse(List.of(args), SampleCatalog.of(Map.of()), env);
    }

    private static List<String> command(LaunchOptions o) throws UsageException {
        return RankCommand.of(o, LAUNCHER_CP, "127.0.0.1:1").commandLine();
    }

    private static Path jar(Path file, String mainClass) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (mainClass != null) {
            m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        }
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out, m)) {
            jar.flush();
        }
        return file;
    }
}
