package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sample Maven project (samples/maven-project) builds against the one dependency {@code dev.mpj:mpj}, gets
 * the runtime and both transports through it, and runs under mpjrun. Its Maven has a local repository of its
 * own: the project's artifacts as this build made them, the rest copied from this build's repository (a
 * {@code file:} mirror), so nothing is fetched from the network and nothing is installed into the user's.
 */
@Timeout(600)
@Tag("multi-jvm")
class MavenProjectIT {
    private static final List<String> MODULES = List.of("mpj-api", "mpj-runtime", "mpj-transport-tcp",
            "mpj-transport-shm", "mpj-pmix");

    @Test
    void sampleProjectBuildsAgainstTheOneDependencyAndRuns(@TempDir Path dir) throws Exception {
        Path root = Commands.repoRoot();
        String version = System.getProperty("mpj.test.version");
        Path repo = dir.resolve("repository");
        install(repo, "mpj-parent", version, root.resolve("pom.xml"), null);
        install(repo, "mpj", version, root.resolve("mpj-all/pom.xml"), null);
        for (String module : MODULES) {
            install(repo, module, version, root.resolve(module).resolve("pom.xml"),
                    root.resolve(module).resolve("target").resolve(module + "-" + version + ".jar"));
        }
        Path settings = Files.writeString(dir.resolve("settings.xml"), "<settings><mirrors><mirror><id>build</id>"
                + "<mirrorOf>*</mirrorOf><url>" + Path.of(System.getProperty("mpj.test.localRepository")).toUri()
                + "</url></mirror></mirrors></settings>");
        Path project = dir.resolve("project");
        copyTree(root.resolve("samples/maven-project"), project);

        Commands.Output build = Commands.run(List.of("mvn", "-B", "-q", "-s", settings.toString(),
                "-Dmaven.repo.local=" + repo, "-Dmpj.version=" + version, "package", "dependency:build-classpath",
                "-Dmdep.outputFile=classpath.txt"), project, 480);
        assertEquals(0, build.exitCode(), build::text);
        String classpath = Files.readString(project.resolve("classpath.txt"));
        for (String module : MODULES) {
            assertTrue(classpath.contains(module + "-" + version + ".jar"), module + " missing from " + classpath);
        }

        Commands.Output run = Commands.run(List.of(root.resolve("mpjrun").toString(), "-np", "3", "-cp",
                project.resolve("target/classes").toString(), "example.Ring"), root, 90);
        assertEquals(0, run.exitCode(), run::text);
        assertTrue(run.text().contains("ring of 3: token 3 (expected 3)"), run::text);
    }

    /** Puts a pom (and a jar) where Maven looks for a locally installed artifact. */
    private static void install(Path repo, String artifact, String version, Path pom, Path jar) throws IOException {
        Path dir = repo.resolve("dev/mpj").resolve(artifact).resolve(version);
        Files.createDirectories(dir);
        Files.copy(pom, dir.resolve(artifact + "-" + version + ".pom"));
        if (jar != null) {
            assertTrue(Files.isRegularFile(jar), "the build did not write " + jar);
            Files.copy(jar, dir.resolve(artifact + "-" + version + ".jar"));
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path rel = from.relativize(f);
                if (rel.startsWith("target")) {
                    continue;
                }
                Path dest = to.resolve(rel.toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(f, dest, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
