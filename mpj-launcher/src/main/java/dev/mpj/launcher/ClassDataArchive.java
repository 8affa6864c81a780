package dev.mpj.launcher;

import dev.mpj.runtime.MpjRuntime;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * An application class-data-sharing archive of the mpj runtime's jars, so rank JVMs map the classes of
 * {@code MPI.Init} (PMI, node segment, TCP and Netty, shared memory) already parsed and verified instead of
 * loading them from the jars: the bulk of a cold {@code MPI.Init}.
 *
 * <p>{@code mpjrun} makes it on first use by a training job ({@link ArchiveTraining}: 3 ranks on 2 fake nodes
 * with on-demand connections, so PMI, both exchanges' paths, shared memory, TCP's connecting and accepting sides
 * and {@code MPI.Finalize} run) whose rank 0 writes it with
 * {@code -XX:ArchiveClassesAtExit} (from Java 24 on, an AOT cache that rank 0 records and a JVM with the ranks' flags
 * creates: see {@link #aotCache}); the training job's launcher JVM writes a second archive, of the launcher,
 * which the {@code mpjrun} scripts pass to later launchers. Both are written under temporary names and renamed
 * into place, under a file lock, so concurrent first jobs neither corrupt nor duplicate them.
 *
 * <p>The JVM maps an archive only when the jars it was made from still lead the class path unchanged, and
 * prints a warning otherwise, so archives are named after the jars' paths ({@code pathsKey}) and after their
 * sizes and modification times and the JVM library's ({@code stateKey}): a rebuilt jar or another JDK gets a new
 * archive, and the archives of the same paths that an older build made are removed. The {@code mpjrun} scripts
 * compute the same names (SHA-1 of {@code stat -c '%n %s %Y'} lines).
 *
 * <p>Environment: {@value #SWITCH_VARIABLE}{@code =off} turns it off; {@value #DIR_VARIABLE} moves it from
 * {@code ${XDG_CACHE_HOME:-~/.cache}/mpj/cds}.
 */
public final class ClassDataArchive {
    /** {@code off} (or {@code 0}, {@code false}) runs ranks without an archive. */
    static final String SWITCH_VARIABLE = "MPJ_CDS";
    /** Where the archives live. */
    static final String DIR_VARIABLE = "MPJ_CDS_DIR";
    /** Set for the training job's launcher: the file its rank 0 writes the ranks' archive to. */
    static final String DUMP_VARIABLE = "MPJ_CDS_DUMP";

    /**
     * Set by the {@code mpjrun} scripts to the ranks' archive that {@code bin/mpj-archive-flag} found through its
     * memo, which is checked against the jars and the JVM: the launcher then uses it as it is, without hashing the
     * jars' state to name it, which on the way to the first rank's start costs a cold JVM SHA-1 and the security
     * providers.
     */
    static final String RANKS_ARCHIVE_PROPERTY = "mpj.launcher.ranksArchive";
    /** The JVM flag that runs a JVM with an archive, followed by the archive's path. */
    static final String USE_FLAG = "-XX:SharedArchiveFile=";
    private static final String RANKS_SUFFIX = "-ranks.jsa";
    private static final String LAUNCHER_SUFFIX = "-launcher.jsa";
    /** What {@code bin/mpj-archive-flag} names the memo of a flag it found, beside the archives. */
    static final String MEMO_SUFFIX = ".flag";
    private static final String FAILED_SUFFIX = ".failed";
    /** Generous: a first job on a machine loaded many times over its cores must not give up on a working build. */
    private static final long TRAINING_TIMEOUT_SECONDS = 600;
    /** Archives of other class paths that no job has used for this long are removed when a new one is made. */
    static final Duration UNUSED_FOR = Duration.ofDays(30);
    /** A used archive's modification time is brought forward at most this often, so most jobs write nothing. */
    private static final Duration USE_MARK_EVERY = Duration.ofDays(1);

    private final List<String> jars;
    private final Path directory;
    private final String name;
    private final String pathsKey;

    private ClassDataArchive(List<String> jars, Path directory, String pathsKey, String stateKey) {
        this.jars = jars;
        this.directory = directory;
        this.pathsKey = pathsKey;
        this.name = pathsKey + "-" + stateKey;
    }

    /**
     * The flags that give every rank of a job the archive, making it first when there is none yet; no flags when
     * it is turned off, when the launcher runs from no jars, or when it cannot be made or the ranks' own
     * {@code jvmOptions} (from {@link LaunchOptions#JVM_OPTS_VARIABLE}) keep the JVM from using it (then with one
     * line on {@code err} saying why).
     */
    public static RankJvmFlags rankFlags(String launcherClassPath, List<String> jvmOptions, Map<String, String> env,
                                  PrintStream err) {
        return rankFlags(launcherClassPath, jvmOptions, env, err, System.getProperty(RANKS_ARCHIVE_PROPERTY));
    }

    /** As {@link #rankFlags(String, List, Map, PrintStream)}, with the ranks' archive the script found, or null. */
    static RankJvmFlags rankFlags(String launcherClassPath, List<String> jvmOptions, Map<String, String> env,
                                  PrintStream err, String named) {
        String dump = env.get(DUMP_VARIABLE);
        if (dump != null) {
            return RankJvmFlags.rankZero(dumpFlags(Runtime.version().feature(), dump));
        }
        if (isOff(env.get(SWITCH_VARIABLE))) {
            return RankJvmFlags.NONE;
        }
        String moduleOption = AOT_CACHE ? moduleOption(jvmOptions) : null;
        if (moduleOption != null) {
            err.println("mpjrun: ranks start without a class-data archive: the JVM cannot use its AOT cache with "
                    + moduleOption + " from " + LaunchOptions.JVM_OPTS_VARIABLE + " (" + SWITCH_VARIABLE
                    + "=off says nothing)");
            return RankJvmFlags.NONE;
        }
        if (named != null && named.endsWith(RANKS_SUFFIX) && Files.isRegularFile(Path.of(named))) {
            Path file = Path.of(named);
            return used(file, file.resolveSibling(file.getFileName().toString()
                    .replace(RANKS_SUFFIX, LAUNCHER_SUFFIX)));
        }
        ClassDataArchive archive = of(LauncherClassPath.parse(launcherClassPath).jars(), env);
        if (archive == null) {
            return RankJvmFlags.NONE;
        }
        Path file = archive.ranksArchive();
        if (!Files.isRegularFile(file)) {
            if (Files.exists(archive.failureMark())) {
                return RankJvmFlags.NONE; // said once already, for this build: no second try, no second message
            }
            try {
                archive.create(err);
            } catch (IOException | RuntimeException e) {
                archive.markFailed(e);
                err.println("mpjrun: ranks start without a class-data archive: " + e.getMessage()
                        + " (not tried again for this build; " + SWITCH_VARIABLE + "=off turns it off)");
                return RankJvmFlags.NONE;
            }
        }
        return used(file, archive.launcherArchive());
    }

    /** The ranks' flags for the archive {@code ranks}, marked used with its launcher's archive. */
    private static RankJvmFlags used(Path ranks, Path launcher) {
        Instant now = Instant.now();
        markUsed(ranks, now);
        markUsed(launcher, now);
        return RankJvmFlags.everyRank(List.of(USE_FLAG + ranks));
    }

    /**
     * Whether the ranks' archive is an AOT cache (JEP 483: classes loaded and linked, and from Java 25 on method
     * profiles, JEP 515), recorded by the training's rank 0 and created with the ranks' own flags. The JVM maps it
     * through {@code -XX:SharedArchiveFile} like a CDS archive. Two reasons:
     * <ul>
     *   <li>A dynamic archive lies on the JDK's base archive, which was dumped without the ranks' {@code --add-exports}
     *   ({@link RankCommand}). From Java 24 on, a JVM given an archive reports such a mismatch of module options in
     *   three error lines (seen on 25), which every rank would print.</li>
     *   <li>On JDK 25 the cache starts ranks faster: {@code MPI.Init} at np 4 takes 680-750 ms against 877-962 ms with
     *   a static archive.</li>
     * </ul>
     * Java 17 keeps the dynamic archive, whose timings are measured.
     */
    static boolean aotCache(int javaFeatureVersion) {
        return javaFeatureVersion >= 24;
    }

    /** {@link #aotCache} for the Java this launcher (and so every rank) runs. */
    private static final boolean AOT_CACHE = aotCache(Runtime.version().feature());

    /** The flags of the training job's rank 0: it writes the archive itself, or records the AOT configuration. */
    static List<String> dumpFlags(int javaFeatureVersion, String dump) {
        return aotCache(javaFeatureVersion) ? List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=" + dump)
                : List.of("-XX:ArchiveClassesAtExit=" + dump);
    }

    /** Options that change the module graph the cache holds, so that the JVM would refuse it with four error lines. */
    private static final List<String> MODULE_OPTIONS = List.of("--add-opens", "--add-exports", "--add-modules",
            "--add-reads", "--patch-module", "--limit-modules", "--upgrade-module-path", "--module-path", "-javaagent");

    /** The first option in {@code jvmOptions} that changes the module graph, or null. */
    static String moduleOption(List<String> jvmOptions) {
        for (String option : jvmOptions) {
            for (String module : MODULE_OPTIONS) {
                if (option.equals(module) || option.startsWith(module + "=") || option.startsWith(module + ":")) {
                    return module;
                }
            }
        }
        return null;
    }

    static boolean isOff(String value) {
        return value != null && (value.equalsIgnoreCase("off") || value.equals("0") || value.equalsIgnoreCase("false"));
    }

    /**
     * The archive of these jars under this JVM, or null when the launcher or the runtime is not among them (they
     * run from class directories, as in their own unit tests) or a jar cannot be read.
     */
    static ClassDataArchive of(List<String> jars, Map<String, String> env) {
        Path libjvm = Path.of(System.getProperty("java.home"), "lib", "server", "libjvm.so");
        String launcherJar = jarOf(ClassDataArchive.class);
        String runtimeJar = jarOf(MpjRuntime.class);
        if (launcherJar == null || runtimeJar == null || !jars.contains(launcherJar) || !jars.contains(runtimeJar)
                || !Files.isRegularFile(libjvm)) {
            return null;
        }
        try {
            return new ClassDataArchive(List.copyOf(jars), directory(env), pathsKey(jars), stateKey(libjvm, jars));
        } catch (IOException e) {
            return null; // a jar is missing: the JVM would not map an archive of it either
        }
    }

    /** Names the jars' paths: as {@code printf '%s\n' JARS... | sha1sum | cut -c1-16}. */
    static String pathsKey(List<String> jars) {
        StringBuilder paths = new StringBuilder();
        for (String jar : jars) {
            paths.append(jar).append('\n');
        }
        return sha1(paths.toString());
    }

    /** Names the files' contents: as {@code stat -c '%n %s %Y' LIBJVM JARS... | sha1sum | cut -c1-16}. */
    static String stateKey(Path libjvm, List<String> jars) throws IOException {
        StringBuilder state = new StringBuilder(statLine(libjvm.toString()));
        for (String jar : jars) {
            state.append(statLine(jar));
        }
        return sha1(state.toString());
    }

    /** The jar {@code type} was loaded from, as the class path names it, or null when it is no jar. */
    private static String jarOf(Class<?> type) {
        try {
            java.security.CodeSource source = type.getProtectionDomain().getCodeSource();
            Path location = source == null ? null : Path.of(source.getLocation().toURI());
            if (location == null || !location.toString().endsWith(".jar")) {
                return null;
            }
            for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                if (!entry.isEmpty() && Path.of(entry).toAbsolutePath().normalize().equals(location)) {
                    return entry;
                }
            }
            return null;
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** The cache directory: {@value #DIR_VARIABLE}, else {@code ${XDG_CACHE_HOME:-~/.cache}/mpj/cds}. */
    static Path directory(Map<String, String> env) {
        String dir = env.get(DIR_VARIABLE);
        if (dir != null && !dir.isBlank()) {
            return Path.of(dir);
        }
        String cache = env.get("XDG_CACHE_HOME");
        Path base = cache != null && !cache.isBlank() ? Path.of(cache)
                : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("mpj").resolve("cds");
    }

    Path ranksArchive() {
        return directory.resolve(name + RANKS_SUFFIX);
    }

    Path launcherArchive() {
        return directory.resolve(name + LAUNCHER_SUFFIX);
    }

    /** Present when making the archive of this build failed; holds why. */
    Path failureMark() {
        return directory.resolve(name + FAILED_SUFFIX);
    }

    private void markFailed(Exception e) {
        try {
            Files.createDirectories(directory);
            Files.writeString(failureMark(), String.valueOf(e.getMessage()) + "\n");
        } catch (IOException ignored) {
            // then the next job tries again, which is fine too
        }
    }

    /** Runs the training job unless a concurrent launcher has just done so; removes stale archives after. */
    void create(PrintStream err) throws IOException {
        Files.createDirectories(directory);
        try (FileChannel lockFile = FileChannel.open(directory.resolve(pathsKey + ".lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = lockFile.lock()) {
            if (Files.isRegularFile(ranksArchive())) {
                return;
            }
            err.println("mpjrun: making the class-data archive of the runtime (once per build and JDK), "
                    + "for faster MPI.Init...");
            removeStale(directory, pathsKey, name, newestJar(), Instant.now().minus(UNUSED_FOR));
            removeUnused(directory, pathsKey, Instant.now().minus(UNUSED_FOR));
            train();
        }
    }

    private void train() throws IOException {
        long pid = ProcessHandle.current().pid();
        Path ranksTmp = directory.resolve(name + "." + pid + ".ranks.tmp");
        Path launcherTmp = directory.resolve(name + "." + pid + ".launcher.tmp");
        Path aotConfiguration = directory.resolve(name + "." + pid + ".aotconf.tmp");
        Path log = directory.resolve(name + "." + pid + ".log");
        List<String> launcherFlags = new ArrayList<>(JvmStartFlags.FLAGS);
        launcherFlags.addAll(List.of("-XX:ArchiveClassesAtExit=" + launcherTmp, "-XX:TieredStopAtLevel=1", "-Xmx64m"));
        List<String> command = java(launcherFlags);
        command.addAll(List.of(MpjRun.class.getName(),
                "-np", "3", "--fake-nodes", "2", "--timeout", Long.toString(TRAINING_TIMEOUT_SECONDS - 10),
                ArchiveTraining.class.getName()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        // the training job runs the defaults, whatever this job's settings say
        env.keySet().removeIf(k -> k.startsWith("MPJ_") && !k.equals("MPJ_SEGMENT_DIR") && !k.equals("MPJ_TCP_HOST"));
        env.put(DUMP_VARIABLE, (AOT_CACHE ? aotConfiguration : ranksTmp).toString());
        env.put("MPJ_JVM_OPTS", "-Xmx64m -XX:TieredStopAtLevel=1");
        env.put("MPJ_INIT_TIMEOUT", Long.toString(TRAINING_TIMEOUT_SECONDS / 2));
        // on demand, so that Netty's connecting side (bootstrap, resolver, connect listeners, our handshake) is
        // archived: loaded from the jars it cost an on-demand job's first alltoall a third of its time (np 16 on 4
        // fake nodes: 2.3-2.6 s against 1.4-1.9 s), while the few classes of the eager phase that it leaves to the
        // jars made no measurable difference to an eager MPI.Init (np 4 and 16)
        env.put("MPJ_CONNECTIONS", "ondemand");
        try {
            runToEnd(pb, "the training job", AOT_CACHE ? aotConfiguration : ranksTmp, log);
            if (AOT_CACHE) {
                createAotCache(aotConfiguration, ranksTmp, log);
            }
            if (Files.isRegularFile(launcherTmp)) {
                Files.move(launcherTmp, launcherArchive(), StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(ranksTmp, ranksArchive(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            Files.deleteIfExists(log);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making the class-data archive", e);
        } finally {
            Files.deleteIfExists(ranksTmp);
            Files.deleteIfExists(launcherTmp);
            Files.deleteIfExists(aotConfiguration);
        }
    }

    /** Creates the AOT cache of {@code configuration}, with the flags every rank runs with. */
    private void createAotCache(Path configuration, Path cache, Path log) throws IOException, InterruptedException {
        List<String> flags = new ArrayList<>(RankCommand.REQUIRED_JVM_FLAGS);
        flags.addAll(List.of("-XX:AOTMode=create", "-XX:AOTConfiguration=" + configuration, "-XX:AOTCache=" + cache));
        runToEnd(new ProcessBuilder(java(flags)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())), "creating the AOT cache", cache, log);
    }

    /** A command line of this JVM's {@code java} with {@code flags} and the archive's jars as class path. */
    private List<String> java(List<String> flags) {
        List<String> command = new ArrayList<>();
        command.add(RankCommand.javaExecutable());
        command.addAll(flags);
        command.addAll(List.of("-cp", String.join(java.io.File.pathSeparator, jars)));
        return command;
    }

    /** Runs {@code what} (its output going to {@code log}) to its end, which must leave {@code product} behind. */
    private static void runToEnd(ProcessBuilder pb, String what, Path product, Path log)
            throws IOException, InterruptedException {
        Process p = pb.start();
        if (!p.waitFor(TRAINING_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new IOException(what + " did not end within " + TRAINING_TIMEOUT_SECONDS + " s (its output: "
                    + log + ")");
        }
        if (p.exitValue() != 0 || !Files.isRegularFile(product)) {
            throw new IOException(what + " failed with status " + p.exitValue() + " (its output: " + log + ")");
        }
    }

    /**
     * Removes what other archives of the same jar paths ({@code pathsKey}) left that no job can use: archives and
     * failure marks older than the newest jar ({@code builtAt}: made from an older build, which the JVM would refuse)
     * or unused since {@code unusedSince} (made by a JDK since replaced), and what trainings killed before they
     * could clean up left behind. Another JDK's archive of this build was made, or used, after the jars: it stays, so
     * that jobs switching {@code JAVA_HOME} keep both JDKs' archives rather than each remaking its own.
     */
    static void removeStale(Path directory, String pathsKey, String name, Instant builtAt, Instant unusedSince)
            throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, pathsKey + "-*")) {
            for (Path f : files) {
                String file = f.getFileName().toString();
                boolean other = !file.startsWith(name)
                        && (file.endsWith(".jsa") || file.endsWith(FAILED_SUFFIX) || file.endsWith(".log"));
                boolean stale = other && (isOlder(f, builtAt) || isOlder(f, unusedSince));
                if (stale || file.endsWith(".tmp")) { // we hold the lock: no training of these paths runs now
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    /** The latest modification time of the jars, when this build was made. */
    private Instant newestJar() throws IOException {
        Instant newest = Instant.EPOCH;
        for (String jar : jars) {
            Instant t = Files.getLastModifiedTime(Path.of(jar)).toInstant();
            if (t.isAfter(newest)) {
                newest = t;
            }
        }
        return newest;
    }

    /**
     * Records that a job used {@code archive}: its modification time is what {@link #removeUnused} reads. The JVM
     * does not check an archive's own time, only that of the jars and of itself, which the name holds.
     */
    static void markUsed(Path archive, Instant now) {
        if (!isOlder(archive, now.minus(USE_MARK_EVERY))) {
            return; // marked within the day, or absent (no launcher archive)
        }
        try {
            Files.setLastModifiedTime(archive, FileTime.from(now));
        } catch (IOException ignored) {
            // not ours to touch: it may then be removed after a month, and remade
        }
    }

    /**
     * Removes the archives and failure marks of class paths other than {@code keepPathsKey} that no job has used
     * since {@code before}, and then their lock files, and the scripts' memos of archive flags written before it: every checkout or install of mpj, and every JDK, gets archives
     * of its own, and without this the directory only grows. A job that maps an archive refreshes its time
     * ({@link #markUsed}); one started by Hydra or Slurm through {@code bin/mpj-argfile} does not, so a build used
     * only that way for a month gets its archive again at its next {@code mpjrun} job.
     */
    static void removeUnused(Path directory, String keepPathsKey, Instant before) {
        Set<String> keysLeft = new HashSet<>();
        List<Path> locks = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path f : files) {
                String file = f.getFileName().toString();
                int dash = file.indexOf('-');
                if (file.endsWith(".lock")) {
                    locks.add(f);
                } else if (file.endsWith(MEMO_SUFFIX)) {
                    if (isOlder(f, before)) {
                        deleteQuietly(f); // the scripts write it again when they next miss it
                    }
                } else if (dash > 0 && !file.startsWith(keepPathsKey + "-") && (file.endsWith(".jsa")
                        || file.endsWith(FAILED_SUFFIX)) && isOlder(f, before)) {
                    deleteQuietly(f);
                } else if (dash > 0) {
                    keysLeft.add(file.substring(0, dash));
                }
            }
        } catch (IOException | DirectoryIteratorException e) {
            return; // pruning is housekeeping: it never stands in the way of making this build's archive
        }
        for (Path lock : locks) {
            String key = lock.getFileName().toString().replace(".lock", "");
            if (!key.equals(keepPathsKey) && !keysLeft.contains(key) && isOlder(lock, before)) {
                deleteQuietly(lock);
            }
        }
    }

    /** Whether {@code file} was last modified before {@code before}; false when it is gone or cannot be read. */
    private static boolean isOlder(Path file, Instant before) {
        try {
            return Files.getLastModifiedTime(file).toInstant().isBefore(before);
        } catch (IOException e) {
            return false;
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // another user's file in a shared directory, say: left as it is
        }
    }

    /** As {@code stat -c '%n %s %Y'}: name, size in bytes, modification time in seconds. */
    private static String statLine(String file) throws IOException {
        Path p = Path.of(file);
        return file + " " + Files.size(p) + " " + Files.getLastModifiedTime(p).to(TimeUnit.SECONDS) + "\n";
    }

    /** The first 16 hex digits of the SHA-1 of {@code text}, as {@code sha1sum | cut -c1-16}. */
    static String sha1(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder();
            for (int i = 0; i < 8; i++) {
                hex.append(Character.forDigit((digest[i] >> 4) & 0xF, 16)).append(Character.forDigit(digest[i] & 0xF, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from this JDK", e);
        }
    }
}
