package dev.mpj.runtime.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A test's program in a small child JVM of the test's class path, for what only a fresh JVM shows (its class loads). */
public final class SmallJvm {
    private SmallJvm() {
    }

    /** Runs {@code main} with {@code jvmFlags} and returns its output, once it has exited with status 0. */
    public static String run(Class<?> main, String... jvmFlags) throws IOException, InterruptedException {
        return run(new ProcessBuilder(command(main, jvmFlags)));
    }

    /** The command that runs {@code main} with {@code jvmFlags} in a small JVM of the test's class path. */
    public static List<String> command(Class<?> main, String... jvmFlags) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m", "-XX:TieredStopAtLevel=1"));
        command.addAll(List.of(jvmFlags));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        return command;
    }

    /** Runs {@code builder}'s command and returns its output, once it has exited with status 0. */
    public static String run(ProcessBuilder builder) throws IOException, InterruptedException {
        Process p = builder.redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        try {
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the child JVM did not exit; output:\n" + output);
            }
            assertEquals(0, p.exitValue(), output);
            return output;
        } finally {
            p.destroyForcibly();
        }
    }
}
