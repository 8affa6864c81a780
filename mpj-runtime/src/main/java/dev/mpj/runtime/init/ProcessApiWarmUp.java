package dev.mpj.runtime.init;

import org.agrona.SystemUtil;

/**
 * Initialises Agrona's {@link SystemUtil} on the watchdog's thread while the caller's thread connects to the
 * process manager. The node segment's first {@code UnsafeBuffer} needs it, and its static initialiser starts the
 * JDK's process API ({@code ProcessHandle.current()}, the reaper's executor, a seeded random): cold work that
 * would otherwise run on the caller's thread after the PMI handshake, on every rank's way to the exchange's fence.
 * Initialising a class twice is impossible, so whichever thread comes second waits for the first or finds it done.
 */
final class ProcessApiWarmUp {

    private ProcessApiWarmUp() {
    }

    /** Never throws: a failure here shows again, with its own error, where the caller's thread needs the class. */
    static void run() {
        try {
            SystemUtil.getPid();
        } catch (RuntimeException | LinkageError e) {
            // the watchdog's work matters more
        }
    }
}
