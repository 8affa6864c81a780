package dev.mpj.launcher;


import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * {@code mpjrun}: starts an MPI job of Java ranks on this machine, with its own PMI-1 process manager.
 * Exits with the job's exit code (see {@link Job}), or 2 for a wrong command line.
 */
public final class MpjRun {
    private MpjRun() {
    }

    public static void main(String[] args) {
        LauncherExit.handleSignals();
        LauncherExit.exit(run(List.of(args), System.out, System.err));
    }

    /** Parses the command line and runs the job on the console; returns the exit code. */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        SampleCatalog samples = SampleCatalog.load(MpjRun.class.getClassLoader());
        LaunchOptions options;
        try {
            options = LaunchOptions.parse(args, samples, System.getenv());
        } catch (UsageException e) {
            if (e.helpRequested()) {
                out.print(usage(samples));
                out.flush();
                return 0;
            }
            err.println("mpjrun: " + e.getMessage());
            err.println("Try 'mpjrun --help' for more information.");
            return Job.EXIT_USAGE;
        }
        RankJvmFlags archive = ClassDataArchive.rankFlags(System.getProperty("java.class.path"), options.jvmOptions(),
                System.getenv(), err);
        return Job.runOnConsole(options, archive);
    }

    static String usage(SampleCatalog samples) {
        StringBuilder s = new StringBuilder()
                .append("Usage: mpjrun -np N [options] MainClass|-jar app.jar|SAMPLE [args...]\n")
                .append("Runs N Java ranks of an MPI program on this machine.\n\n")
                .append("Options:\n")
                .append("  -np N, -n N          number of ranks\n")
                .append("  -cp PATH             class path of the program (the mpj runtime is added)\n")
                .append("  --fake-nodes K       split the ranks in blocks over K pretend nodes (1..N)\n")
                .append("  -env NAME VALUE      set an environment variable in every rank (repeatable)\n")
                .append("  -l, --prefix-rank    prefix every output line with [rank]\n")
                .append("  --timeout S          stop the job after S seconds (exit status 124)\n")
                .append("  -h, --help           show this help\n\n")
                .append("Environment:\n")
                .append("  ").append(LaunchOptions.JVM_OPTS_VARIABLE)
                .append("         extra JVM flags for every rank, e.g. -Xmx512m\n")
                .append("  MPJ_*                runtime settings, passed on to every rank\n\n")
                .append("Exit status: 0 when every rank finished; the code given to MPI.Abort; the status of the\n")
                .append("first rank that failed (128+signal if killed); 124 on timeout; 130 on Ctrl-C, 143 on SIGTERM;\n")
                .append("2 for a wrong command line.\n");
        if (!samples.entries().isEmpty()) {
            s.append("\nSamples:\n");
            for (String name : samples.entries().keySet()) {
                s.append(String.format("  %-20s %s%n", name, samples.about(name)));
            }
            s.append("Every sample answers --help with its own usage.\n");
        }
        return s.toString();
    }
}
