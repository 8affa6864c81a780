package dev.mpj.runtime.init;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.pmi.PmiClients;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Ends a rank whose {@code MPI.Init} does not finish in time. Under a process manager that does not end a job
 * when one of its processes dies (Slurm without {@code --kill-on-bad-exit}), the survivors would otherwise wait
 * in the next PMI barrier, or for a peer's business card, forever. The watchdog gives the waits of init their
 * own bounds ({@link Setting#INIT_TIMEOUT}) a few seconds of grace first, so that their more specific errors
 * win; when it fires, it names this rank and the last phase it finished, removes the node segment's file (any
 * local rank may: the job has failed), and halts with status 1.
 *
 * <p>Its thread is the rank's one watchdog: it also looks at the launcher ({@link LauncherWatchdog}) while it
 * waits, and goes on looking at it after {@code MPI.Init}; without a launcher to watch it ends with init.
 */
final class InitWatchdog implements Runnable {
    /** Grace after {@link Settings#initTimeoutSeconds()}: the bounded waits of init report first. */
    static final int GRACE_SECONDS = 5;
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(LauncherWatchdog.POLL_MILLIS);

    private final InitReport report;
    private final Map<String, String> env;
    /** When the clock started: the entry of {@code MPI.Init}, before the settings were read. */
    private final long startNanos;
    /** The mpjrun to watch, or null. */
    private final LauncherWatchdog launcher;
    /** {@link Settings#initTimeoutSeconds()}, once {@link #arm} has the settings. */
    private int seconds; // guarded by this
    /** Whether {@link #arm} has given the settings (init may end without it, when they fail). */
    private boolean armed; // guarded by this
    /** Whether this process will map a node segment, so that its thread runs {@link MappingWarmUp}. */
    private boolean warmUp; // guarded by this
    private volatile int rank = -1;
    /** The node segment's file, once this rank knows it: removed when the watchdog fires. */
    private volatile Path segmentFile;
    private boolean disarmed; // guarded by this

    private InitWatchdog(InitReport report, Map<String, String> env, LauncherWatchdog launcher) {
        this.report = report;
        this.env = env;
        this.launcher = launcher;
        this.startNanos = System.nanoTime();
    }

    /**
     * Starts the clock for {@code report}'s init at the entry of {@code MPI.Init}, before the settings are read:
     * the process halts unless {@link #disarm()} comes first; and the watch of the launcher {@code env} names, if
     * any. While the caller's thread reads the settings, the watchdog's thread readies the JDK's network start-up
     * for the PMI connection ({@link PmiClients#warmUpConnection}), which needs the environment alone.
     */
    static InitWatchdog start(InitReport report, Map<String, String> env) {
        InitWatchdog w = new InitWatchdog(report, env, LauncherWatchdog.of(env));
        // a plain daemon thread: a delayed CompletableFuture would load its executor machinery during init
        Thread t = new Thread(w, "mpj-watchdog");
        t.setDaemon(true);
        t.start();
        return w;
    }

    /**
     * The settings are read: the timeout becomes {@code mpj.initTimeout}, counted from {@link #start}, and a
     * process that will talk to a process manager has its thread ready the first mappings' start-up next.
     */
    synchronized void arm(Settings settings) {
        seconds = settings.initTimeoutSeconds();
        // a process that will run alone maps no segment: it is spared the warm-up
        warmUp = PmiClients.offersProcessManager(settings, env);
        armed = true;
        notifyAll();
    }

    @Override
    public void run() {
        PmiClients.warmUpConnection(env);
        try {
            if (awaitSettings()) {
                MappingWarmUp.run();
            }
            while (waitArmed()) {
                if (launcher != null) {
                    launcher.check(); // outside the lock: the first check looks the launcher up
                }
            }
        } catch (InterruptedException e) {
            return;
        }
        if (launcher != null) {
            launcher.checkUntilGone();
        }
    }

    /** Waits for {@link #arm} or the end of init; true when the mappings' start-up is to be readied. */
    private synchronized boolean awaitSettings() throws InterruptedException {
        // no deadline yet: reading the settings is local work that does not wait, and disarm follows its failure
        while (!armed && !disarmed) {
            wait();
        }
        return warmUp && !disarmed;
    }

    private long deadline() {
        return startNanos + TimeUnit.SECONDS.toNanos(seconds + GRACE_SECONDS);
    }

    /**
     * Waits until init is disarmed (false), the next look at the launcher is due or the wait ended early (true), or
     * the deadline passes, where it halts the process.
     */
    private synchronized boolean waitArmed() throws InterruptedException {
        long left = deadline() - System.nanoTime();
        if (!disarmed && left > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, launcher == null ? left : Math.min(left, POLL_NANOS));
            left = deadline() - System.nanoTime();
        }
        if (disarmed) {
            return false;
        }
        if (left <= 0) {
            expire();
        }
        return true;
    }

    /** The rank this process learned from its process manager, for the message. */
    void rank(int r) {
        rank = r;
    }

    /**
     * The node segment's file: if init fails, nobody will use it, and under a process manager that does not sweep
     * the segment directory (Hydra, Slurm) it would stay until the next job's node root finds it stale.
     */
    void removeOnExpiry(Path file) {
        segmentFile = file;
    }

    /** Init finished (or failed with its own error): the watchdog stays quiet, but for the launcher's watch. */
    synchronized void disarm() {
        disarmed = true;
        notifyAll(); // the watchdog thread ends now, or goes on to watch the launcher alone
    }

    /** Called with the lock held ({@link #waitArmed}). */
    private void expire() {
        String who = rank < 0 ? "mpj: this process" : "mpj: rank " + rank;
        System.err.println(who + ": MPI.Init did not finish within " + seconds + " s (last phase done: "
                + report.lastPhaseName() + "); a peer process probably died, or the process manager stopped"
                + " answering. Exiting (raise " + Setting.INIT_TIMEOUT.property() + " or "
                + Setting.INIT_TIMEOUT.environmentVariable() + " for slower starts)");
        System.err.flush();
        Path file = segmentFile;
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException | RuntimeException e) {
                // halting matters more; the next node root sweeps stale segments
            }
        }
        Runtime.getRuntime().halt(1);
    }
}
