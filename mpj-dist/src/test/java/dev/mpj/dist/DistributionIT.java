package dev.mpj.dist;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The binary distribution works where it is unpacked, with nothing but a JDK: the tarball is unpacked into a
 * fresh directory and run from there, away from the source tree and with no MPJ_HOME.
 */
@Timeout(120)
@Tag("multi-jvm")
class DistributionIT {
    @TempDir
    static Path unpacked;
    private static Path home;

    @BeforeAll
    static void unpack() throws Exception {
        Path tarball = Path.of(System.getProperty("mpj.dist.tarball"));
        assertTrue(Files.isRegularFile(tarball), "the build did not write " + tarball);
        Output o = run(List.of("tar", "xzf", tarball.toString(), "-C", unpacked.toString()), Map.of());
        assertEquals(0, o.exitCode, o.text);
        home = unpacked.resolve(System.getProperty("mpj.dist.name"));
    }

    @Test
    void holdsTheLauncherTheJarsAndTheDocs() throws IOException {
        assertTrue(Files.isExecutable(home.resolve("bin/mpjrun")));
        assertTrue(Files.isExecutable(home.resolve("bin/mpj-argfile")));
        assertTrue(Files.isRegularFile(home.resolve("README.md")));
        assertTrue(Files.isRegularFile(home.resolve("docs/ARCHITECTURE.md")));
        try (var jars = Files.list(home.resolve("lib"))) {
            List<String> names = jars.map(p -> p.getFileName().toString()).toList();
            for (String prefix : List.of("mpj-api-", "mpj-runtime-", "mpj-transport-tcp-", "mpj-transport-shm-",
                    "samples-", "netty-transport-", "agrona-")) {
                assertTrue(names.stream().anyMatch(n -> n.startsWith(prefix) && n.endsWith(".jar")),
                        () -> prefix + "*.jar missing in lib/: " + names);
            }
        }
    }

    @Test
    void itsReadmeTellsHowToInstallAndRunAndNothingAboutBuilding() throws IOException {
        String readme = Files.readString(home.resolve("README.md"));
        assertTrue(readme.contains("mpj-argfile") && readme.contains("mpjrun -np"), readme);
        assertTrue(readme.contains(System.getProperty("mpj.dist.name")), "the README names the version: " + readme);
        for (String build : List.of("mvn ", ".ci/run", "${")) {
            assertFalse(readme.contains(build), "the tarball's README mentions " + build);
        }
    }

    @Test
    void theLauncherHasAJarOfItsOwnAndTheRanksRuntimeJarNoneOfItsClasses() throws IOException {
        Path runtime = onlyJar("mpj-runtime-");
        try (JarFile jar = new JarFile(runtime.toFile())) {
            List<String> launcherClasses = jar.stream().map(JarEntry::getName)
                    .filter(n -> n.startsWith("dev/mpj/launcher/")).toList();
            assertEquals(List.of(), launcherClasses, runtime + " holds classes of the launcher");
        }
        try (JarFile jar = new JarFile(onlyJar("mpj-launcher-").toFile())) {
            assertNotNull(jar.getEntry("dev/mpj/launcher/MpjRun.class"), "the launcher jar lacks MpjRun");
        }
    }

    /** The one jar in lib/ whose name starts with {@code prefix}. */
    private static Path onlyJar(String prefix) throws IOException {
        try (var jars = Files.list(home.resolve("lib"))) {
            List<Path> found = jars.filter(p -> p.getFileName().toString().startsWith(prefix)
                    && p.getFileName().toString().endsWith(".jar")).toList();
            assertEquals(1, found.size(), () -> "lib/ should hold one " + prefix + "*.jar: " + found);
            return found.get(0);
        }
    }

    @Test
    void mpjrunRunsASampleFromTheUnpackedDirectory() throws Exception {
        Output o = run(List.of(home.resolve("bin/mpjrun").toString(), "-np", "2", "hello"),
                Map.of("MPJ_JVM_OPTS", "-Xmx64m -XX:TieredStopAtLevel=1"));
        assertEquals(0, o.exitCode, o.text);
        assertTrue(o.text.contains("Hello from rank 0 of 2 on "), o.text);
        assertTrue(o.text.contains("Hello from rank 1 of 2 on "), o.text);
    }

    /** The second identical job of one starts its rank as a singleton, without the launcher (decision 0080). */
    @Test
    void aJobOfOneThatRanBeforeStartsWithoutTheLauncher() throws Exception {
        Map<String, String> env = Map.of("MPJ_JVM_OPTS", "-Xmx64m", "MPJ_INIT_TIMINGS", "1",
                "MPJ_CDS_DIR", unpacked.resolve("direct-cds").toString());
        Output first = run(List.of(home.resolve("bin/mpjrun").toString(), "-np", "1", "hello"), env);
        assertEquals(0, first.exitCode, first.text);
        assertTrue(first.text.contains("pmi(pmi1)"), first.text);
        Output again = run(List.of(home.resolve("bin/mpjrun").toString(), "-np", "1", "hello"), env);
        assertEquals(0, again.exitCode, again.text);
        assertTrue(again.text.contains("Hello from rank 0 of 1 on "), again.text);
        assertTrue(again.text.contains("pmi(singleton)"), again.text);
    }

    @Test
    void argfileStartsARankWithAPlainJavaCommand() throws Exception {
        Output args = run(List.of(home.resolve("bin/mpj-argfile").toString()), Map.of());
        assertEquals(0, args.exitCode, args.text);
        Path argfile = unpacked.resolve("mpj.args");
        Files.writeString(argfile, args.text);
        Output o = run(List.of(java(), "-Xmx64m", "@" + argfile, "dev.mpj.samples.Hello"), Map.of());
        assertEquals(0, o.exitCode, o.text);
        assertTrue(o.text.contains("Hello from rank 0 of 1 on "), o.text);
    }

    private record Output(int exitCode, String text) {
    }

    /** Runs a command in the unpacked directory, with JAVA_HOME set to this JDK and no MPJ_HOME. */
    private static Output run(List<String> command, Map<String, String> env) throws Exception {
        Path log = Files.createTempFile("mpj-dist", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(unpacked.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            pb.environment().remove("MPJ_HOME");
            pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
            }
            return new Output(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
