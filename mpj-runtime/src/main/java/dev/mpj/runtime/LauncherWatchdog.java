package dev.mpj.runtime;

import java.util.Map;

/**
 * A rank started by {@code mpjrun} exits when its launcher dies (for example SIGKILLed), so no orphaned
 * JVM outlives the job even when the launcher had no chance to stop it.
 */
final class LauncherWatchdog {
    static final String LAUNCHER_PID = "MPJ_LAUNCHER_PID";

    private LauncherWatchdog() {
    }

    static void watch(Map<String, String> env) {
        String pid = env.get(LAUNCHER_PID);
        if (pid == null) {
            return;
        }
        ProcessHandle.of(Long.parseLong(pid.trim())).ifPresentOrElse(
                launcher -> launcher.onExit().thenRun(LauncherWatchdog::launcherGone),
                LauncherWatchdog::launcherGone);
    }

    private static void launcherGone() {
        System.err.println("mpj: the mpjrun that started this rank is gone; exiting");
        Runtime.getRuntime().halt(1);
    }
}
