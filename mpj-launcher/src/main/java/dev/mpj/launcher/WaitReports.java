package dev.mpj.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Asking for wait reports ({@code dev.mpj.runtime.engine.WaitReport}): {@value #SIGNAL} to a rank makes it print
 * where it waits; to {@code mpjrun} it makes the launcher ask all its ranks. The JVM cannot send a signal other
 * than TERM and KILL, so {@code kill} does. Decision 0021.
 */
final class WaitReports {
    /** The signal a rank's runtime answers with its report, and {@code mpjrun} with its ranks'. */
    static final String SIGNAL = "USR1";

    private WaitReports() {
    }

    /** Sends {@value #SIGNAL} to every process of {@code pids}; false when {@code kill} failed for some. */
    static boolean signal(List<Long> pids) {
        if (pids.isEmpty()) {
            return true;
        }
        List<String> command = new ArrayList<>(List.of("kill", "-" + SIGNAL));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        try {
            Process kill = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return kill.waitFor(5, TimeUnit.SECONDS) && kill.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * {@code mpjrun --dump PID}: asks the {@code mpjrun} of process {@code pid} for its ranks' wait reports, which
     * it prints on its own stderr, with the job's output. Returns the exit status: 0 when asked, 2 when {@code pid}
     * is no running {@code mpjrun}, 1 when the signal could not be sent.
     */
    static int dump(String pid, PrintStream out, PrintStream err) {
        long id;
        try {
            id = Long.parseLong(pid.trim());
        } catch (NumberFormatException e) {
            err.println("mpjrun: --dump takes the pid of a running mpjrun, not '" + pid + "'");
            return Job.EXIT_USAGE;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(id).filter(ProcessHandle::isAlive);
        if (process.isEmpty() || !isLauncher(process.get())) {
            err.println("mpjrun: --dump: process " + id + " is no running mpjrun");
            return Job.EXIT_USAGE;
        }
        if (!signal(List.of(id))) {
            err.println("mpjrun: --dump: cannot send SIG" + SIGNAL + " to process " + id);
            return Job.EXIT_LAUNCH_FAILED;
        }
        out.println("mpjrun: asked the job of mpjrun " + id + " where its ranks wait; they answer on its stderr");
        return 0;
    }

    /** Whether {@code process} runs {@link MpjRun}, as far as its command line can be read. */
    private static boolean isLauncher(ProcessHandle process) {
        ProcessHandle.Info info = process.info();
        String line = info.commandLine().orElse("") + " " + String.join(" ", info.arguments().orElse(new String[0]));
        return line.contains(MpjRun.class.getName());
    }
}
