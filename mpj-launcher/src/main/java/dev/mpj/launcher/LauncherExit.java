package dev.mpj.launcher;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * How {@code mpjrun}'s JVM ends: with one status, decided once. SIGINT ends it with 130 and SIGTERM with 143, as
 * a shell reports a process killed by them, even when the job ends at the same moment because the signal killed
 * its ranks: without this gate the JVM's own handler and {@code main}'s {@code System.exit} race, and the job's
 * status (the ranks' 143) could win over the launcher's 130.
 */
final class LauncherExit {
    private LauncherExit() {
    }

    /**
     * Routes SIGINT and SIGTERM through {@link #exit}. Where the JVM may not handle them (it was started with
     * {@code -Xrs}, or they were ignored when it started) they keep their default.
     */
    static void handleSignals() {
        for (String name : new String[] {"INT", "TERM"}) {
            try {
                Signal.handle(new Signal(name), new ExitOnSignal());
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // the JVM keeps this signal to itself: its default ends the launcher with the same status
            }
        }
    }

    /**
     * Ends the JVM with {@code status} (after the shutdown hooks) unless an exit is already under way, in which
     * case the caller waits for that one: the first caller decides the status.
     */
    static synchronized void exit(int status) {
        System.exit(status);
    }

    /** Ends the JVM as a shell reports the signal; a class, not a lambda, as none is linked before the ranks start. */
    private static final class ExitOnSignal implements SignalHandler {
        @Override
        public void handle(Signal signal) {
            exit(128 + signal.getNumber());
        }
    }
}
