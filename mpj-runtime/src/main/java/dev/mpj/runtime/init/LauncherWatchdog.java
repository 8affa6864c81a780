package dev.mpj.runtime.init;

import java.util.Map;

/**
 * A rank started by {@code mpjrun} exits when its launcher dies (for example SIGKILLed), so no orphaned
 * JVM outlives the job even when the launcher had no chance to stop it.
 */
final class LauncherWatchdog implements Runnable {
    static final String LAUNCHER_PID = "MPJ_LAUNCHER_PID";
    /** How often the launcher is looked at: a rank outlives a killed launcher by at most this. */
    private static final long POLL_MILLIS = 250;

    private final long launcherPid;

    private LauncherWatchdog(long launcherPid) {
        this.launcherPid = launcherPid;
    }

    static void watch(Map<String, String> env) {
        String pid = env.get(LAUNCHER_PID);
        if (pid == null) {
            return;
        }
        // A polling daemon thread rather than onExit(): the launcher is no child of ours, so onExit() would poll
        // too, after loading CompletableFuture's machinery during MPI.Init. The thread also looks the launcher up:
        // ProcessHandle starts its reaper executor, a few milliseconds MPI.Init need not wait for.
        Thread t = new Thread(new LauncherWatchdog(Long.parseLong(pid.trim())), "mpj-launcher-watchdog");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void run() {
        ProcessHandle launcher = ProcessHandle.of(launcherPid).orElse(null);
        try {
            while (launcher != null && launcher.isAlive()) {
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
