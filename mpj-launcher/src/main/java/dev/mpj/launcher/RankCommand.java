package dev.mpj.launcher;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.pmi.wire.PmiVariables;
import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * How every rank is started: one JVM command line, the same for all ranks but for the {@link RankJvmFlags}, and
 * per rank the variables that give it its place in the job. The class path is the launcher's jars (the mpj
 * runtime, so it is always there; first, so a {@link dev.mpj.launcher.ClassDataArchive class-data
 * archive} of them applies), then the jar for {@code -jar} and the user's {@code -cp}, then the launcher's other
 * entries.
 */
public final class RankCommand {
    /** The export of {@link #REQUIRED_JVM_FLAGS}, which only a JVM that maps a node segment needs. */
    static final List<String> SEGMENT_EXPORT = List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED");
    /** Flags every rank JVM gets first: those of the Java the launcher (and so every rank) runs. */
    public static final List<String> REQUIRED_JVM_FLAGS = requiredJvmFlags(Runtime.version().feature());

    /**
     * Agrona 2.x reaches {@code jdk.internal.misc.Unsafe}. From Java 23 on, JCTools' use of {@code sun.misc.Unsafe}
     * is also allowed outright: Java 24 warns at its first use (JEP 498), four lines from every rank. Then the
     * {@link JvmStartFlags}.
     */
    static List<String> requiredJvmFlags(int javaFeatureVersion) {
        List<String> flags = new ArrayList<>(SEGMENT_EXPORT);
        if (javaFeatureVersion >= 23) {
            flags.add("--sun-misc-unsafe-memory-access=allow");
        }
        flags.addAll(JvmStartFlags.FLAGS);
        return List.copyOf(flags);
    }

    /** {@link #REQUIRED_JVM_FLAGS}, without {@link #SEGMENT_EXPORT} for ranks that {@code rankFlags} says map none. */
    static List<String> requiredJvmFlags(RankJvmFlags rankFlags) {
        if (rankFlags.mapsSegment()) {
            return REQUIRED_JVM_FLAGS;
        }
        List<String> flags = new ArrayList<>(REQUIRED_JVM_FLAGS);
        flags.removeAll(SEGMENT_EXPORT);
        return List.copyOf(flags);
    }

    /** The {@code java} of the JVM the launcher runs on, which the ranks (and the archive's training) run on too. */
    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Variables an enclosing process manager may have set; a rank's PMI client must not see them. */
    static final List<String> ENCLOSING_PMI_VARIABLES = List.of("PMI_FD", "PMI_PORT", "PMI_ID", "PMI_RANK",
            "PMI_SIZE", "PMI_JOBID", "PMI_SPAWNED", "PMI_TOTALVIEW", "MPI_LOCALRANKID", "MPI_LOCALNRANKS",
            PmiVariables.PIPELINE, PmiVariables.SECRET, PmiVariables.PORT_FD);

    private final Map<String, String> environment;
    private final String workingDirectory;
    private final ProcessMapping mapping;
    private final String pmiPort;
    private final String pmiSecret;
    private final List<String> commandLine;
    private final String mainClass;
    private final List<String> classPath;
    private final RankJvmFlags rankFlags;
    /** Where a rank's own flags go in {@link #commandLine}: after the java executable and the required flags. */
    private final int rankFlagsAt;

    private RankCommand(LaunchOptions options, String pmiPort, String pmiSecret, List<String> commandLine,
                        String mainClass, List<String> classPath, RankJvmFlags rankFlags) {
        this(options.mapping(), options.environment(), options.workingDirectory(), pmiPort, pmiSecret, commandLine,
                mainClass, classPath, rankFlags, 1 + requiredJvmFlags(rankFlags).size());
    }

    private RankCommand(ProcessMapping mapping, Map<String, String> environment, String workingDirectory,
                        String pmiPort, String pmiSecret, List<String> commandLine, String mainClass,
                        List<String> classPath, RankJvmFlags rankFlags, int rankFlagsAt) {
        this.rankFlags = rankFlags;
        this.rankFlagsAt = rankFlagsAt;
        this.mainClass = mainClass;
        this.classPath = List.copyOf(classPath);
        this.environment = environment;
        this.workingDirectory = workingDirectory;
        this.mapping = mapping;
        this.pmiPort = pmiPort;
        this.pmiSecret = pmiSecret;
        this.commandLine = List.copyOf(commandLine);
    }

    /**
     * @param launcherClassPath the launcher's {@code java.class.path}, which holds the mpj runtime
     * @param pmiPort           the PMI server's {@code host:port}
     * @throws UsageException when the {@code -jar} file cannot be read or names no main class
     */
    static RankCommand of(LaunchOptions options, String launcherClassPath, String pmiPort) throws UsageException {
        return of(options, launcherClassPath, pmiPort, null, RankJvmFlags.NONE);
    }

    /**
     * As {@link #of(LaunchOptions, String, String)}, with the job's secret for the ranks' PMI clients (none when
     * null) and {@code rankFlags} added to each rank's JVM flags.
     */
    static RankCommand of(LaunchOptions options, String launcherClassPath, String pmiPort, String pmiSecret,
                          RankJvmFlags rankFlags) throws UsageException {
        LauncherClassPath launcher = LauncherClassPath.parse(launcherClassPath);
        List<String> classPath = new ArrayList<>(launcher.jars());
        String mainClass = options.mainClass();
        if (options.jar() != null) {
            classPath.add(options.jar());
            mainClass = mainClassOf(options.jar());
        }
        classPath.add(options.classPath());
        classPath.addAll(launcher.others());
        classPath.removeAll(List.of(""));
        if (options.workingDirectory() != null) { // relative entries name places seen from the launcher
            classPath.replaceAll(RankCommand::absolute);
        }

        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(requiredJvmFlags(rankFlags));
        Map<String, String> rankEnvironment = rankEnvironment(options);
        command.addAll(RankCollector.flags(options.processes(), options.jvmOptions(), rankEnvironment));
        command.addAll(options.jvmOptions());
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(mainClass);
        command.addAll(options.arguments());
        return new RankCommand(options, pmiPort, pmiSecret, command, mainClass, classPath, rankFlags);
    }

    /** The settings the ranks see: the launcher's environment, -env variables, and -D flags of MPJ_JVM_OPTS. */
    static Settings rankSettings(LaunchOptions options) {
        Properties properties = new Properties();
        for (String option : options.jvmOptions()) {
            int eq = option.indexOf('=');
            if (option.startsWith("-D") && eq > 2) {
                properties.put(option.substring(2, eq), option.substring(eq + 1));
            }
        }
        return Settings.from(rankEnvironment(options), properties);
    }

    /** The variables a rank inherits: the launcher's, then the {@code -env} ones. */
    private static Map<String, String> rankEnvironment(LaunchOptions options) {
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.putAll(options.environment());
        return environment;
    }

    /** What a node agent needs to start its ranks as this command would: the job's {@link AgentJob}. */
    AgentJob agentJob(String kvsName, int treeWidth, int initTimeoutSeconds, boolean prefixOutput) {
        Map<Integer, List<String>> flags = new LinkedHashMap<>();
        for (int rank = 0; rank < mapping.size(); rank++) {
            if (!rankFlags.of(rank).isEmpty()) {
                flags.put(rank, rankFlags.of(rank));
            }
        }
        return new AgentJob(mapping.size(), mapping.nodes(), kvsName, treeWidth, initTimeoutSeconds, prefixOutput,
                commandLine, flags, environment, workingDirectory);
    }

    /** The command of {@code job}'s ranks, served by the PMI server at {@code pmiPort}. */
    static RankCommand of(AgentJob job, String pmiPort, String pmiSecret) {
        return new RankCommand(job.mapping(), job.environment(), job.workingDirectory(), pmiPort, pmiSecret,
                job.commandLine(), null, List.of(), rank -> job.rankFlags().getOrDefault(rank, List.of()),
                1 + REQUIRED_JVM_FLAGS.size());
    }

    /** The ranks' class path, entry by entry. */
    List<String> classPath() {
        return classPath;
    }

    /** The command line shared by all ranks, without any rank's {@link RankJvmFlags}. */
    List<String> commandLine() {
        return commandLine;
    }

    /** Rank {@code rank}'s command line: the shared one with its own flags after the required ones. */
    List<String> commandLine(int rank) {
        List<String> flags = rankFlags.of(rank);
        if (flags.isEmpty()) {
            return commandLine;
        }
        List<String> command = new ArrayList<>(commandLine);
        command.addAll(rankFlagsAt, flags);
        return command;
    }

    /** What a rank finds in its environment on top of the launcher's: PMI port mode, locality, {@code -env}. */
    Map<String, String> variables(int rank) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("PMI_PORT", pmiPort);
        v.put("PMI_ID", Integer.toString(rank));
        v.put("PMI_RANK", Integer.toString(rank));
        v.put("PMI_SIZE", Integer.toString(mapping.size()));
        v.put(PmiVariables.PIPELINE, "1");
        v.put("MPI_LOCALRANKID", Integer.toString(mapping.localRank(rank)));
        v.put("MPI_LOCALNRANKS", Integer.toString(mapping.localSize(rank)));
        v.put("MPJ_LAUNCHER_PID", Long.toString(ProcessHandle.current().pid()));
        v.putAll(environment); // the user's explicit choice wins, but for the secret the server checks
        if (pmiSecret != null) {
            v.put(PmiVariables.SECRET, pmiSecret);
        }
        return v;
    }

    /** A process builder for one rank; redirections are left to the caller. */
    ProcessBuilder processBuilder(int rank) {
        ProcessBuilder pb = new ProcessBuilder(commandLine(rank));
        Map<String, String> env = pb.environment();
        for (String variable : ENCLOSING_PMI_VARIABLES) {
            env.remove(variable);
        }
        env.putAll(variables(rank));
        if (workingDirectory != null) {
            pb.directory(new File(workingDirectory));
        }
        return pb;
    }

    private static String absolute(String pathList) {
        List<String> entries = new ArrayList<>();
        for (String e : pathList.split(File.pathSeparator)) {
            entries.add(e.isEmpty() ? e : Path.of(e).toAbsolutePath().toString());
        }
        return String.join(File.pathSeparator, entries);
    }

    /**
     * Fails before N JVMs start when the main class is not on the class path (a typo, a missing -cp). A class the
     * launcher's own class loader finds on its class path (a sample's) is taken as found: every entry of that loader
     * is on the ranks' class path, and its jars are open already, where a loader of the ranks' class path would open
     * them again on the way to the first rank's start.
     */
    void requireMainClass() throws UsageException {
        String classFile = mainClass.replace('.', '/') + ".class";
        URL own = RankCommand.class.getClassLoader().getResource(classFile);
        if (own != null && !own.getProtocol().equals("jrt") && holdsLauncherClassPath()) {
            return; // a class of the JDK's own is no program on the class path, here as below
        }
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath) {
            for (String e : entry.split(File.pathSeparator)) {
                if (e.contains("*")) {
                    return; // wildcard entries are the JVM's to expand
                }
                try {
                    urls.add(Path.of(e.isEmpty() ? "." : e).toUri().toURL());
                } catch (IOException | RuntimeException ex) {
                    return; // an entry the JVM may still understand; let it decide
                }
            }
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), null)) {
            if (loader.findResource(classFile) == null) {
                throw new UsageException("no class " + mainClass + " on the class path"
                        + " (neither a sample name nor a class: see mpjrun --help; add your classes with -cp)");
            }
        } catch (IOException e) {
            // closing the loader failed: the check itself already answered
        }
    }

    /** Whether every entry of the launcher's own class path is on the ranks' class path, as the same text. */
    private boolean holdsLauncherClassPath() {
        List<String> entries = new ArrayList<>();
        for (String entry : classPath) {
            entries.addAll(List.of(entry.split(File.pathSeparator)));
        }
        for (String own : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!own.isEmpty() && !entries.contains(own)) {
                return false;
            }
        }
        return true;
    }

    private static String mainClassOf(String jar) throws UsageException {
        Manifest manifest;
        try (JarFile file = new JarFile(jar)) {
            manifest = file.getManifest();
        } catch (IOException e) {
            throw new UsageException("cannot read the jar " + jar + ": " + e.getMessage());
        }
        String mainClass = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
        if (mainClass == null || mainClass.isBlank()) {
            throw new UsageException(jar + " names no Main-Class in its manifest; run it as "
                    + "mpjrun -np N -cp " + jar + " MainClass");
        }
        return mainClass.trim();
    }
}
