package dev.mpj.samples.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One job of a benchmark sweep: {@code mpjrun} in a child JVM of this class path, with small rank heaps and a long
 * init timeout, because dozens of cold JVMs on a few cores make init slow, not stuck.
 */
final class SweepJob {
    private SweepJob() {
    }

    /**
     * The class path of the jobs: {@code mpj.sweep.classpath} when set (the bench scripts leave the charting
     * library out of it, so the ranks load what a user's ranks load), else this JVM's.
     */
    private static String jobClassPath() {
        return System.getProperty("mpj.sweep.classpath", System.getProperty("java.class.path"));
    }

    /**
     * Runs {@code mpjrun -np NP --fake-nodes NODES --timeout 600 MAIN ARGS…} and returns its output.
     *
     * @throws IllegalStateException naming {@code what} when the job fails or outlives its timeout
     */
    static String run(String what, int np, int nodes, Class<?> main, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", jobClassPath(),
                "dev.mpj.launcher.MpjRun", "-np", Integer.toString(np), "--fake-nodes",
                Integer.toString(nodes), "--timeout", "600", main.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putIfAbsent("MPJ_JVM_OPTS", "-Xmx64m -XX:TieredStopAtLevel=1 -Xshare:auto");
        pb.environment().putIfAbsent("MPJ_INIT_TIMEOUT", "600");
        Process p = pb.start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(660, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(what + " failed:\n" + text);
        }
        return text;
    }
}
