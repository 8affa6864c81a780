package dev.mpj.launcher;

import dev.mpj.runtime.config.Setting;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What lets the {@code mpjrun} script start a job of one rank without the launcher: after such a job succeeded, the
 * launcher writes down the rank's command line together with everything it was made from (the script's class path
 * and ranks' archive, the working directory, the arguments, and the variables that can change the command or the
 * way the job runs). When the next run's inputs are the same, the script executes the rank's command itself as a
 * singleton ({@code MPJ_MPJRUN_SINGLETON=1}), so the job is one JVM start, as MPICH's singleton start is one process.
 * The command stays computed in one place ({@link RankCommand}); the script only compares.
 *
 * <p>Only a job that needs nothing from the launcher qualifies: one rank on this machine, no timeout, no output
 * prefixes, no {@code -env}, no {@code -wdir}, no process manager around it, and the singleton PMI client chosen.
 * The launcher's checks that a singleton cannot make itself (the job's exit status, abort naming the rank) the
 * singleton client makes when the script starts it so.
 *
 * <p>The file holds lines: {@value #HEADER}, the class path, the ranks' archive, the working directory, the count of
 * arguments and the arguments, the count of variables and {@code NAME=VALUE} for every variable whose name starts
 * with one of {@link #VARIABLE_PREFIXES}, then the count of command words and the words.
 */
final class DirectStartMemo {
    /** The system property by which the script names the memo's file. */
    static final String FILE_PROPERTY = "mpj.launcher.directStartMemo";
    static final String HEADER = "mpj-direct-start 1";
    /** Variables whose values the memo's command depends on, or which would make the job run otherwise. */
    static final List<String> VARIABLE_PREFIXES = List.of("MPJ_", "PMI", "MPI_", "JAVA_", "JDK_", "SLURM_JOB_ID");

    private DirectStartMemo() {
    }

    /** Whether a job with {@code options} in {@code env} needs nothing the launcher alone gives. */
    static boolean qualifies(LaunchOptions options, Map<String, String> env) {
        if (options.processes() != 1 || options.mapping().nodes() != 1 || !options.hosts().isEmpty()
                || options.prefixOutput() || options.hasTimeout()
                || !options.environment().isEmpty() || options.workingDirectory() != null || options.device() != null
                || options.launcher() != null || options.noSrun()) {
            return false;
        }
        for (String name : RankCommand.ENCLOSING_PMI_VARIABLES) {
            if (env.containsKey(name)) {
                return false;
            }
        }
        if (env.containsKey("SLURM_JOB_ID") || env.containsKey(Setting.PMI.environmentVariable())
                || env.containsKey(ClassDataArchive.DUMP_VARIABLE)) {
            return false;
        }
        String pmiProperty = "-D" + Setting.PMI.property() + "=";
        return options.jvmOptions().stream().noneMatch(o -> o.startsWith(pmiProperty));
    }

    /**
     * The memo's lines for a job run with {@code args} from the class path {@code classPath} and the ranks' archive
     * {@code ranksArchive} (empty for none), in {@code env}, whose rank ran {@code command}; null when a value
     * holds a line break, which a line cannot keep.
     */
    static List<String> lines(String classPath, String ranksArchive, List<String> args, Map<String, String> env,
                              List<String> command) {
        String workingDirectory = env.get("PWD");
        if (workingDirectory == null) {
            return null;
        }
        List<String> lines = new ArrayList<>(List.of(HEADER, classPath, ranksArchive, workingDirectory));
        lines.add(Integer.toString(args.size()));
        lines.addAll(args);
        Map<String, String> variables = new TreeMap<>();
        env.forEach((name, value) -> {
            if (VARIABLE_PREFIXES.stream().anyMatch(name::startsWith)) {
                variables.put(name, value);
            }
        });
        lines.add(Integer.toString(variables.size()));
        variables.forEach((name, value) -> lines.add(name + "=" + value));
        lines.add(Integer.toString(command.size()));
        lines.addAll(command);
        for (String line : lines) {
            if (line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0) {
                return null;
            }
        }
        return lines;
    }

    /**
     * The ranks' archive in {@code flags}, or empty: the one this job used, which the script names the same way next
     * time, also when this job made it.
     */
    static String archive(List<String> flags) {
        for (String flag : flags) {
            if (flag.startsWith(ClassDataArchive.USE_FLAG)) {
                return flag.substring(ClassDataArchive.USE_FLAG.length());
            }
        }
        return "";
    }

    /**
     * Writes the memo of a job that succeeded, when the script named a file for it and the job qualifies; a memo
     * that cannot be written is left out (the next job goes through the launcher again). The memo names the ranks'
     * archive of {@code ranksArchive}, which the script compares, and the command of a rank with {@code rankFlags}
     * (the job of one's own archive, {@link DirectStartArchive}, or the ranks').
     */
    static void write(LaunchOptions options, List<String> args, Map<String, String> env, RankJvmFlags ranksArchive,
                      RankJvmFlags rankFlags) {
        String file = System.getProperty(FILE_PROPERTY);
        if (file == null || file.isEmpty() || !qualifies(options, env)) {
            return;
        }
        String classPath = System.getProperty("java.class.path");
        try {
            List<String> command = RankCommand.of(options, classPath, "", null, rankFlags).commandLine(0);
            String archive = archive(ranksArchive.of(0));
            List<String> lines = lines(classPath, archive, args, env, command);
            if (lines == null) {
                return;
            }
            Path target = Path.of(file);
            Files.createDirectories(target.toAbsolutePath().getParent());
            Path temporary = target.resolveSibling(target.getFileName() + "." + ProcessHandle.current().pid());
            Files.write(temporary, lines, StandardCharsets.UTF_8);
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (UsageException | IOException | RuntimeException e) {
            // no memo: the next job of one starts through the launcher, as this one did
        }
    }
}
