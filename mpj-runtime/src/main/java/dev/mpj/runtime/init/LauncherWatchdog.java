package dev.mpj.runtime.init;

import java.util.Map;

/**
 * Whether the {@code mpjrun} that started this rank is still there, so that no orphaned JVM outlives the job even
 * when the launcher had no chance to stop it (for example SIGKILLed). It has no thread of its own: the
 * {@link InitWatchdog}'s thread asks it every {@link #POLL_MILLIS}, during {@code MPI.Init} and after.
 */
final class LauncherWatchdog {
    static final String LAUNCHER_PID = "MPJ_LAUNCHER_PID";
    /** How often the launcher is looked at: a rank outlives a killed launcher by at most this. */
    static final long POLL_MILLIS = 250;

    private final long launcherPid;
    private ProcessHandle launcher; // looked up at the first look, off the caller's thread
    private boolean lookedUp;

    private LauncherWatchdog(long launcherPid) {
        this.launcherPid = launcherPid;
    }

    /** The watch of the launcher {@code env} names, or null when no mpjrun started this rank. */
    static LauncherWatchdog of(Map<String, String> env) {
        String pid = env.get(LAUNCHER_PID);
        return pid == null ? null : new LauncherWatchdog(Long.parseLong(pid.trim()));
    }

    /**
     * Polled rather than {@code onExit()}: the launcher is no child of ours, so {@code onExit()} would poll too,
     * from an executor of its own. Ends this process when the launcher is gone.
     */
    void check() {
        if (!lookedUp) {
            lookedUp = true;
            launcher = ProcessHandle.of(launcherPid).orElse(null);
        }
        if (launcher == null || !launcher.isAlive()) {
            System.err.println("mpj: the mpjrun that started this rank is gone; exiting");
            Runtime.getRuntime().halt(1);
        }
    }

    /** Checks every {@link #POLL_MILLIS} until the launcher is gone (and the process with it) or interrupted. */
    void checkUntilGone() {
        try {
            while (true) {
                check();
                Thread.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
