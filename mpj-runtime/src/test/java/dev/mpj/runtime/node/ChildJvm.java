package dev.mpj.runtime.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@link SegmentPeerMain} in a small child JVM, with or without the flag Agrona 2.x needs. */
final class ChildJvm {
    record Result(int exitCode, String output) {
    }

    private ChildJvm() {
    }

    static Process start(boolean withAgronaFlag, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        if (withAgronaFlag) {
            command.add("--add-exports");
            command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SegmentPeerMain.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove("JDK_JAVA_OPTIONS");
        return pb.start();
    }

    static Result finish(Process p) throws IOException, InterruptedException {
        try {
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                throw new AssertionError("child JVM did not exit; output:\n" + output);
            }
            return new Result(p.exitValue(), output);
        } finally {
            p.destroyForcibly();
        }
    }
}
