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
    private final int seconds;
    /** The mpjrun to watch, or null. */
    private final LauncherWatchdog launcher;
    /** Whether this process will map a node segment, so that its thread first runs {@link ProcessApiWarmUp}. */
    private final boolean warmUp;
    private volatile int rank = -1;
    /** The node segment's file, once this rank knows it: removed when the watchdog fires. */
    private volatile Path segmentFile;
    private boolean disarmed; // guarded by this

    private InitWatchdog(InitReport report, int seconds, LauncherWatchdog launcher, boolean warmUp) {
        this.report = report;
        this.seconds = seconds;
        this.launcher = launcher;
        this.warmUp = warmUp;
    }

    /**
     * Starts the clock for {@code report}'s init: the process halts unless {@link #disarm()} comes first; and the
     * watch of the launcher {@code env} names, if any.
     */
    static InitWatchdog arm(Settings settings, InitReport report, Map<String, String> env) {
        // a process that will run alone maps no segment: it is spared the warm-up
        InitWatchdog w = new InitWatchdog(report, settings.initTimeoutSeconds(), LauncherWatchdog.of(env),
                PmiClients.offersProcessManager(settings, env));
        // a plain daemon thread: a delayed CompletableFuture would load its executor machinery during init
        Thread t = new Thread(w, "mpj-watchdog");
        t.setDaemon(true);
        t.start();
        return w;
    }

    @Override
    public void run() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds + GRACE_SECONDS);
        if (warmUp) {
            ProcessApiWarmUp.run();
        }
        try {
            while (waitArmed(deadline)) {
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

    /**
     * Waits until init is disarmed (false), the next look at the launcher is due or the wait ended early (true), or
     * the deadline passes, where it halts the process.
     */
    private synchronized boolean waitArmed(long deadline) throws InterruptedException {
        long left = deadline - System.nanoTime();
        if (!disarmed && left > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, launcher == null ? left : Math.min(left, POLL_NANOS));
            left = deadline - System.nanoTime();
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
