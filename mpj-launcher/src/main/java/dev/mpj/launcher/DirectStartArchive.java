package dev.mpj.launcher;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The class-data archive of a job of one that the {@code mpjrun} script starts without the launcher
 * ({@link DirectStartMemo}), beside its memo. The memo's command maps it and runs without
 * {@link RankCommand#SEGMENT_EXPORT} (a job of one maps no node segment); the script dumps it at the exit of the first
 * direct start that finds it missing or older than a jar of the class path (the JVM would refuse it with a warning),
 * so it holds what the job of one's JVM loads, the singleton's classes and the program's own included. The ranks'
 * archive will not do for this JVM: dumped with the export, it keeps the JVM from its optimised module handling, so
 * that every start resolves the module graph again and spins a method-handle class.
 *
 * <p>Used only when the JVM can dump and map it without a word: every class path entry a jar, the archives not
 * turned off, and no JVM option of the user's that changes the module graph or names an archive. One archive per
 * class path and JVM options, since the JVM refuses one dumped for others.
 */
final class DirectStartArchive {
    /** What the archive's name ends with, in place of the memo's {@value ClassDataArchive#MEMO_SUFFIX}. */
    static final String SUFFIX = ".jsa";
    private static final List<String> ARCHIVE_OPTIONS = List.of("-Xshare", "-XX:SharedArchiveFile",
            "-XX:ArchiveClassesAtExit", "-XX:AOT", "-XX:+AutoCreateSharedArchive");

    private final Path archive;

    private DirectStartArchive(Path archive) {
        this.archive = archive;
    }

    /**
     * The archive of the job of one with {@code options} whose memo is {@code memoFile}, or null when the job does
     * not qualify for a direct start or its rank cannot have the archive.
     */
    static DirectStartArchive of(String memoFile, LaunchOptions options, Map<String, String> env,
                                 String launcherClassPath) {
        if (memoFile == null || !memoFile.endsWith(ClassDataArchive.MEMO_SUFFIX)
                || !DirectStartMemo.qualifies(options, env)
                || ClassDataArchive.isOff(env.get(ClassDataArchive.SWITCH_VARIABLE))
                || ClassDataArchive.moduleOption(options.jvmOptions()) != null
                || options.jvmOptions().stream().anyMatch(o -> ARCHIVE_OPTIONS.stream().anyMatch(o::startsWith))) {
            return null;
        }
        RankCommand command;
        try {
            command = RankCommand.of(options, launcherClassPath, "");
        } catch (UsageException | RuntimeException e) {
            return null;
        }
        List<String> classPath = command.classPath();
        for (String entry : classPath) {
            if (!entry.endsWith(".jar") || !Files.isRegularFile(Path.of(entry))) {
                return null; // the JVM archives jars only, and fails its dump on a class directory
            }
        }
        // one archive per JVM and its flags (the collector's among them) and class path: the JVM refuses, with a
        // warning, one dumped for other jars, and maps less of one dumped under another collector
        List<String> commandLine = command.commandLine();
        String key = Integer.toHexString(String.join("\n", commandLine.subList(0, commandLine.indexOf("-cp") + 2))
                .hashCode());
        String memo = memoFile.substring(0, memoFile.length() - ClassDataArchive.MEMO_SUFFIX.length());
        return new DirectStartArchive(Path.of(memo + "-" + key + SUFFIX));
    }

    /** The flags of the rank the script starts: this archive, and no segment export. */
    RankJvmFlags rankFlags() {
        return new WithoutSegment(List.of(ClassDataArchive.USE_FLAG + archive));
    }

    /** The flags of a rank that maps no node segment, so that its JVM is started without the export. */
    record WithoutSegment(List<String> flags) implements RankJvmFlags {
        @Override
        public List<String> of(int rank) {
            return flags;
        }

        @Override
        public boolean mapsSegment() {
            return false;
        }
    }
}
