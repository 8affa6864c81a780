package dev.mpj.launcher;


import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * {@code mpjrun}: starts an MPI job of Java ranks on this machine, with its own PMI-1 process manager, or hands
 * it to the user's {@link ProcessManager} (srun inside a Slurm allocation, mpiexec.hydra for other hosts).
 * Exits with the job's exit code (see {@link Job}) or the manager's, or 2 for a wrong command line.
 */
public final class MpjRun {
    private MpjRun() {
    }

    public static void main(String[] args) {
        LauncherWarmUp.start();
        LauncherExit.handleSignals();
        LauncherExit.exit(run(List.of(args), System.out, System.err));
    }

    /** Parses the command line and runs the job on the console; returns the exit code. */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (!args.isEmpty() && args.get(0).equals("--dump")) {
            if (args.size() != 2) {
                return usageError(err, "--dump takes one argument: the pid of a running mpjrun");
            }
            return WaitReports.dump(args.get(1), out, err);
        }
        return run(args, System.getenv(), out, err);
    }

    /** As {@link #run(List, PrintStream, PrintStream)}, in the launcher environment {@code environment}. */
    static int run(List<String> args, Map<String, String> environment, PrintStream out, PrintStream err) {
        SampleCatalog samples = SampleCatalog.load(MpjRun.class.getClassLoader());
        LaunchOptions options;
        try {
            options = LaunchOptions.parse(args, samples, environment);
        } catch (UsageException e) {
            if (e.helpRequested() || e.versionRequested()) {
                out.print(e.helpRequested() ? usage(samples) : version());
                out.flush();
                return 0;
            }
            return usageError(err, e.getMessage());
        }
        Optional<ProcessManager> manager = ProcessManager.choose(options, environment);
        if (options.launcher() != null && manager.orElse(null) != ProcessManager.HYDRA) {
            err.println("mpjrun: -launcher " + options.launcher() + " ignored: it tells Hydra how to reach other "
                    + "hosts, and this job does not run through Hydra");
        }
        if (manager.isPresent()) {
            return new DelegatedJob(manager.get(), options, environment, err)
                    .run(System.getProperty("java.class.path"));
        }
        if (options.workingDirectory() != null && !Files.isDirectory(Path.of(options.workingDirectory()))) {
            return usageError(err, "-wdir " + options.workingDirectory() + " is no directory");
        }
        if (options.device() != null) {
            err.println("mpjrun: -dev " + options.device() + " ignored: mpj chooses its transports itself "
                    + "(shared memory within a node, TCP between nodes; see the setting mpj.transports)");
        }
        Optional<String> warning = oversubscriptionWarning(options, Runtime.getRuntime().availableProcessors());
        if (warning.isPresent()) {
            err.println(warning.get());
        }
        String classPath = System.getProperty("java.class.path");
        RankJvmFlags archive = ClassDataArchive.rankFlags(classPath, options.jvmOptions(), environment, err);
        int status = Job.runOnConsole(options, archive);
        if (status == 0) {
            // after the job: only the memo of one that succeeded needs it, and its lookups stay off the job's start
            DirectStartArchive direct = DirectStartArchive.of(System.getProperty(DirectStartMemo.FILE_PROPERTY),
                    options, environment, classPath);
            DirectStartMemo.write(options, args, environment, archive, direct == null ? archive : direct.rankFlags());
        }
        return status;
    }

    private static int usageError(PrintStream err, String message) {
        err.println("mpjrun: " + message);
        err.println("Try 'mpjrun --help' for more information.");
        return Job.EXIT_USAGE;
    }

    /** A warning when the job has more ranks than the machine has cores, unless --oversubscribe says it is meant. */
    static Optional<String> oversubscriptionWarning(LaunchOptions options, int cores) {
        if (options.oversubscribe() || options.processes() <= cores) {
            return Optional.empty();
        }
        return Optional.of("mpjrun: " + options.processes() + " ranks on " + cores + (cores == 1 ? " core" : " cores")
                + ": expect slow progress (pass --oversubscribe to silence this)");
    }

    /** {@code mpjrun --version}: mpj's version (from the jar's manifest, else from the build) and the Java's. */
    static String version() {
        String mpj = MpjRun.class.getPackage().getImplementationVersion();
        if (mpj == null) {
            Properties p = new Properties();
            try (InputStream in = MpjRun.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            } catch (IOException e) {
                // reported as unknown below
            }
            mpj = p.getProperty("version", "unknown");
        }
        return "mpj " + mpj + "\nJava " + Runtime.version() + " (" + System.getProperty("java.vendor") + ", "
                + System.getProperty("java.home") + ")\n";
    }

    static String usage(SampleCatalog samples) {
        StringBuilder s = new StringBuilder()
                .append("Usage: mpjrun -np N [options] MainClass|-jar app.jar|SAMPLE [args...]\n")
                .append("Runs N Java ranks of an MPI program on this machine; inside a Slurm allocation through\n")
                .append("srun, on the allocated nodes; with -hosts naming other machines through mpiexec.hydra.\n\n")
                .append("Options:\n")
                .append("  -np N, -n N          number of ranks\n")
                .append("  -cp PATH             class path of the program (the mpj runtime is added)\n")
                .append("  --fake-nodes K       split the ranks in blocks over K pretend nodes (1..N)\n")
                .append("  -ppn N               N ranks per pretend node: ceil(np/N) nodes, ranks spread evenly\n")
                .append("  -hosts H[:n],...     (-host, -H) hosts and their slots. This machine's names (localhost,\n")
                .append("                       its name) are pretend nodes; other machines run the job through\n")
                .append("                       mpiexec.hydra (see docs/MPJRUN.md)\n")
                .append("  -launcher NAME       how mpiexec.hydra reaches other hosts (ssh, the default; rsh, fork...)\n")
                .append("  --no-srun            inside a Slurm allocation, run on this machine, not through srun\n")
                .append("  -f FILE              (-machinefile, --hostfile) hosts from FILE: host, host:n or\n")
                .append("                       host slots=n lines, # comments; as -hosts\n")
                .append("  -env NAME VALUE      set an environment variable in every rank (repeatable; -genv too)\n")
                .append("  -x NAME[=VALUE]      as -env; without =VALUE pass on mpjrun's own value\n")
                .append("  -wdir DIR            the ranks' working directory (--wdir too)\n")
                .append("  --oversubscribe      more ranks than cores is meant: no warning\n")
                .append("  -dev NAME            accepted and ignored: mpj chooses its transports itself\n")
                .append("  -l, --prefix-rank    prefix every output line with [rank]\n")
                .append("  --timeout S          stop the job after S seconds (exit status 124), first printing\n")
                .append("                       where each rank waits\n")
                .append("  --dump PID           ask the running mpjrun PID where its ranks wait (or kill -USR1 PID);\n")
                .append("                       the ranks answer on that job's stderr\n")
                .append("  --version            print mpj's and Java's versions\n")
                .append("  -h, --help           show this help\n\n")
                .append("Environment:\n")
                .append("  ").append(LaunchOptions.JVM_OPTS_VARIABLE)
                .append("         extra JVM flags for every rank, e.g. -Xmx512m\n")
                .append("  MPJ_*                runtime settings, passed on to every rank\n\n")
                .append("Exit status: 0 when every rank finished; the code given to MPI.Abort; the status of the\n")
                .append("first rank that failed (128+signal if killed); 124 on timeout; 130 on Ctrl-C, 143 on SIGTERM;\n")
                .append("2 for a wrong command line. Through srun or mpiexec.hydra: their exit status.\n");
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
