package dev.mpj.runtime;

import java.util.Map;

/**
 * A rank started by {@code mpjrun} exits when its launcher dies (for example SIGKILLed), so no orphaned
 * JVM outlives the job even when the launcher had no chance to stop it.
 */
final class LauncherWatchdog implements Runnable {
    static final String LAUNCHER_PID = "MPJ_LAUNCHER_PID";
    /** How often the launcher is looked at: a rank outlives a killed launcher by at most this. */
    private static final long POLL_MILLIS = 250;

    private final ProcessHandle launcher;

    private LauncherWatchdog(ProcessHandle launcher) {
        this.launcher = launcher;
    }

    static void watch(Map<String, String> env) {
        String pid = env.get(LAUNCHER_PID);
        if (pid == null) {
            return;
        }
        ProcessHandle launcher = ProcessHandle.of(Long.parseLong(pid.trim())).orElse(null);
        if (launcher == null) {
            launcherGone();
        }
        // A polling daemon thread rather than onExit(): the launcher is no child of ours, so onExit() would poll
        // too, after loading CompletableFuture's machinery during MPI.Init.
        Thread t = new Thread(new LauncherWatchdog(launcher), "mpj-launcher-watchdog");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void run() {
        try {
            while (launcher.isAlive()) {
                Thread.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            return;
        }
        launcherGone();
    }

    private static void launcherGone() {
        System.err.println("mpj: the mpjrun that started this rank is gone; exiting");
        Runtime.getRuntime().halt(1);
    }
}
