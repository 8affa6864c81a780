package dev.mpj.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * One job started the way a user starts it: {@code mpjrun} in its own JVM, with this test's class path.
 * Every rank JVM carries a unique marker in its command line, so a test can prove none is left behind.
 */
final class Job {
    /** Small, fast-starting rank JVMs: the suite runs up to 8 ranks on 2 cores. */
    static final String RANK_JVM_OPTS = "-Xmx64m -XX:TieredStopAtLevel=1 -Xshare:auto";

    private final List<String> launcherArgs = new ArrayList<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private final String marker = "mpj.it.job=" + UUID.randomUUID();
    private final List<String> wrapper = new ArrayList<>();
    private String rankJvmOpts = RANK_JVM_OPTS;
    private long timeoutSeconds = 120;

    private Job(int np) {
        launcherArgs.add("-np");
        launcherArgs.add(Integer.toString(np));
    }

    static Job np(int np) {
        return new Job(np);
    }

    /** A job of {@code np} ranks over {@code transport}: "shm" (one node) or "tcp" (every rank its own fake node). */
    static Job over(int np, String transport) {
        Job job = new Job(np);
        return transport.equals("tcp") ? job.launcherOptions("--fake-nodes", Integer.toString(np)) : job;
    }

    /** Options given to mpjrun before the program (e.g. "--fake-nodes", "2"). */
    Job launcherOptions(String... options) {
        launcherArgs.addAll(Arrays.asList(options));
        return this;
    }

    Job env(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** Rank JVM flags instead of {@link #RANK_JVM_OPTS}; the marker is still added. */
    Job rankJvmOptions(String options) {
        rankJvmOpts = options;
        return this;
    }

    /** A command mpjrun runs under, e.g. {@code salloc -N 2 -n 4}: it ends with mpjrun's command line. */
    Job under(String... command) {
        wrapper.addAll(Arrays.asList(command));
        return this;
    }

    Job timeout(long seconds) {
        timeoutSeconds = seconds;
        return this;
    }

    /** Runs {@code program} with {@code args} and waits for mpjrun to exit. */
    Result run(Class<?> program, String... args) {
        return run(program.getName(), args);
    }

    Result run(String program, String... args) {
        return start(program, args).await(timeoutSeconds);
    }

    /** Starts mpjrun and returns at once; the caller waits for it with {@link Running#await}. */
    Running start(Class<?> program, String... args) {
        return start(program.getName(), args);
    }

    Running start(String program, String... args) {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(mpjrun(launcherArgs));
        cmd.add(program);
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("MPJ_JVM_OPTS", rankJvmOpts + " -D" + marker);
        pb.environment().putAll(env);
        try {
            Process p = pb.start();
            return new Running(p, drain(p.getInputStream()), drain(p.getErrorStream()), System.nanoTime(), marker);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The command line of mpjrun in its own JVM with this test's class path, followed by {@code args}. */
    static List<String> mpjrun(List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "dev.mpj.launcher.MpjRun"));
        cmd.addAll(args);
        return cmd;
    }

    /** A launched job: its launcher process and what it has printed so far. */
    record Running(Process launcher, ByteArrayOutputStream out, ByteArrayOutputStream err, long startNanos,
                   String marker) {
        String outSoFar() {
            synchronized (out) {
                return out.toString(StandardCharsets.UTF_8);
            }
        }

        /** Waits until {@code count} lines of stdout start with {@code prefix}; fails if mpjrun ends first. */
        void awaitLines(String prefix, int count, long timeoutSeconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            while (outSoFar().lines().filter(l -> l.startsWith(prefix)).count() < count) {
                if (System.nanoTime() > deadline || !launcher.isAlive()) {
                    throw new AssertionError("no " + count + " lines '" + prefix + "'\n" + await(5));
                }
                Thread.sleep(50);
            }
        }

        String errSoFar() {
            synchronized (err) {
                return err.toString(StandardCharsets.UTF_8);
            }
        }

        /** Waits for mpjrun to exit (killing it and its ranks at the deadline) and collects the result. */
        Result await(long timeoutSeconds) {
            try {
                boolean exited = launcher.waitFor(timeoutSeconds, TimeUnit.SECONDS);
                if (!exited) {
                    launcher.descendants().forEach(ProcessHandle::destroyForcibly);
                    launcher.destroyForcibly().waitFor();
                }
                long ms = (System.nanoTime() - startNanos) / 1_000_000;
                Thread.sleep(50); // let the drains copy the last bytes
                return new Result(exited ? launcher.exitValue() : -1, outSoFar(), errSoFar(), ms, marker, !exited);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static ByteArrayOutputStream drain(InputStream in) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Thread t = new Thread(() -> {
            byte[] b = new byte[8192];
            try {
                for (int n; (n = in.read(b)) > 0; ) {
                    synchronized (buf) {
                        buf.write(b, 0, n);
                    }
                }
            } catch (IOException ignored) {
                // the process is gone
            }
        });
        t.setDaemon(true);
        t.start();
        return buf;
    }

    /** Processes alive whose command line carries {@code marker}. */
    static List<ProcessHandle> leftovers(String marker) {
        return ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .toList();
    }

    /** What a job did. */
    record Result(int exitCode, String out, String err, long millis, String marker, boolean timedOut) {
        /** Rank JVMs of this job still alive (there should be none once mpjrun has exited). */
        List<ProcessHandle> leftovers() {
            return Job.leftovers(marker);
        }

        long linesContaining(String s) {
            return out.lines().filter(l -> l.contains(s)).count();
        }

        @Override
        public String toString() {
            return "exit " + exitCode + " after " + millis + " ms" + (timedOut ? " (TIMED OUT)" : "")
                    + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }
}
