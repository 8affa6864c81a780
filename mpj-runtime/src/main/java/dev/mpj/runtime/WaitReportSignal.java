package dev.mpj.runtime;

import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Prints the wait report of this process's runtimes on stderr when the process receives {@value #SIGNAL}, on the
 * JVM's signal thread, so it answers while the MPI thread is blocked. {@code mpjrun} starts its ranks with the
 * signal ignored until the handler is installed, so an early signal is lost rather than fatal. Decision 0021.
 */
final class WaitReportSignal {
    /** SIGUSR1: HotSpot uses neither it nor SIGQUIT's thread dump for this, and process managers forward it. */
    static final String SIGNAL = "USR1";

    private static final List<MpjRuntime> RUNTIMES = new CopyOnWriteArrayList<>();
    private static boolean installed;

    private WaitReportSignal() {
    }

    static synchronized void register(MpjRuntime runtime) {
        RUNTIMES.add(runtime);
        if (!installed) {
            installed = true;
            try {
                Signal.handle(new Signal(SIGNAL), new Printer());
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // no such signal here, or the JVM keeps it (-Xrs aside): the job runs without reports
            }
        }
    }

    static void unregister(MpjRuntime runtime) {
        RUNTIMES.remove(runtime);
    }

    /** A class, not a lambda, as nothing on the init path is (decision 0010). */
    private static final class Printer implements SignalHandler {
        @Override
        public void handle(Signal signal) {
            StringBuilder text = new StringBuilder();
            for (MpjRuntime runtime : RUNTIMES) {
                for (String line : runtime.waitReport()) {
                    text.append(line).append('\n');
                }
            }
            if (text.length() > 0) {
                System.err.print(text); // one write: a launcher reads each rank's report whole
                System.err.flush();
            }
        }
    }
}
