package dev.mpj.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Runs external commands (mpiexec.hydra, the mpjrun script) with a deadline. */
final class Commands {
    private Commands() {
    }

    /** Exit code and merged output of a command that ran to its end or was killed at the deadline. */
    record Output(int exitCode, String text, long millis) {
    }

    static Output run(List<String> command, Path dir, long timeoutSeconds) throws IOException, InterruptedException {
        Path log = Files.createTempFile("mpj-it", ".log");
        try {
            long t0 = System.nanoTime();
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            pb.environment().put("MPJ_BUILD", "0"); // the build under test has just packaged the jars
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            return new Output(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8), ms);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** The repository root (tests run in the samples module). */
    static Path repoRoot() {
        return Path.of("").toAbsolutePath().getParent();
    }

    /** Skips when Hydra is not installed, except in CI, where its absence is a failure. */
    static void requireHydra() {
        boolean present = Files.isExecutable(Path.of("/usr/bin/mpiexec.hydra"));
        if (!present && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("mpiexec.hydra is missing: CI must install Debian's mpich");
        }
        assumeTrue(present, "mpiexec.hydra is not installed (apt-get install mpich)");
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
