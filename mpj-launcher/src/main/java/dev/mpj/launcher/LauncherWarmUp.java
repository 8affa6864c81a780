package dev.mpj.launcher;

import dev.mpj.runtime.spi.PlatformSelectorProvider;

import java.nio.channels.spi.SelectorProvider;

/**
 * Readies, on a thread of its own, the JDK start-up that the launcher's way to its first rank start needs and its
 * own work before that does not: the process API ({@code ProcessHandleImpl}, whose initialisation links the JVM's
 * first lambdas and so starts the method-handle machinery), the class that starts processes, and the selector
 * provider of the PMI server. The main thread meanwhile parses the command line, looks up the class-data archives
 * and reads the settings, so on a machine with a core to spare the two overlap; where the main thread reaches one
 * of these classes first, it waits for that class's initialisation, which the JVM runs once.
 */
final class LauncherWarmUp implements Runnable {
    private LauncherWarmUp() {
    }

    /** Starts the warm-up on a daemon thread; never throws. */
    static void start() {
        try {
            Thread thread = new Thread(new LauncherWarmUp(), "mpjrun-warm-up");
            thread.setDaemon(true);
            thread.start();
        } catch (RuntimeException | Error e) {
            // the main thread does the same work when it gets there
        }
    }

    @Override
    public void run() {
        try {
            ProcessHandle.current();
            Class.forName("java.lang.ProcessImpl", true, null);
            PlatformSelectorProvider.name();
            SelectorProvider.provider();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // the main thread meets the same failure, with its own message, where it needs the class
        }
    }
}
