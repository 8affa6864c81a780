package dev.mpj.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A job that {@code mpjrun} hands to the user's {@link ProcessManager}: one {@code srun} or {@code mpiexec.hydra}
 * on the launcher's console, starting every rank with the JVM command line {@code mpjrun} gives its own ranks
 * (but for the class-data archive, which the other nodes may not have). {@code mpjrun} exits with the manager's
 * status; {@code --timeout}, SIGINT and SIGTERM stop the manager, which stops the ranks.
 */
final class DelegatedJob {
    /** Between SIGTERM to the manager and SIGKILL: srun and Hydra take their ranks down on SIGTERM. */
    private static final long STOP_GRACE_MILLIS = 5000;

    private final ProcessManager manager;
    private final LaunchOptions options;
    private final Map<String, String> environment;
    private final PrintStream err;
    private volatile Process process;

    DelegatedJob(ProcessManager manager, LaunchOptions options, Map<String, String> environment, PrintStream err) {
        this.manager = manager;
        this.options = options;
        this.environment = environment;
        this.err = err;
    }

    /** Runs the job; returns the manager's exit status, or mpjrun's own for what fails before it runs. */
    int run(String launcherClassPath) {
        Optional<Path> executable = manager.find(environment.get("PATH"));
        if (executable.isEmpty()) {
            err.println("mpjrun: " + manager.missing(options, environment));
            return Job.EXIT_LAUNCH_FAILED;
        }
        List<String> command;
        try {
            RankCommand rank = RankCommand.of(options, launcherClassPath, null);
            rank.requireMainClass();
            command = manager.command(executable.get().toString(), options, rank.commandLine());
        } catch (UsageException e) {
            err.println("mpjrun: " + e.getMessage());
            return Job.EXIT_USAGE;
        }
        ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
        Map<String, String> env = pb.environment();
        env.clear();
        env.putAll(environment);
        RankCommand.ENCLOSING_PMI_VARIABLES.forEach(env::remove); // the manager's ranks get its own
        env.putAll(options.environment());
        Thread stopOnShutdown = new Thread(this::stop, "mpjrun-stop-" + manager.executable());
        Runtime.getRuntime().addShutdownHook(stopOnShutdown);
        try {
            process = pb.start();
            return await();
        } catch (IOException e) {
            err.println("mpjrun: cannot start " + manager.executable() + ": " + e.getMessage());
            return Job.EXIT_LAUNCH_FAILED;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnShutdown);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook is running or has run
            }
        }
    }

    private int await() {
        Process p = process;
        try {
            if (!options.hasTimeout()) {
                return p.waitFor();
            }
            if (p.waitFor(options.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                return p.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
            return Job.EXIT_LAUNCH_FAILED;
        }
        err.println("mpjrun: job timed out after " + Job.seconds(options.timeout()) + "; stopping "
                + manager.executable());
        err.flush();
        stop();
        return Job.EXIT_TIMEOUT;
    }

    /** SIGTERM to the manager, SIGKILL if it is still there after the grace. */
    private void stop() {
        Process p = process;
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
