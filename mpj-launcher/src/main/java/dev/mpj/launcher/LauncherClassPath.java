package dev.mpj.launcher;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The launcher's class path split into its jar files and everything else (directories, wildcards). A class-data
 * archive can only cover jars, and a rank JVM maps it only when the jars it was made from come first on the
 * rank's class path, in the same order: so the jars lead, then the program's class path, then the rest.
 *
 * @param jars   the jar entries, in class-path order
 * @param others the remaining entries, in class-path order
 */
public record LauncherClassPath(List<String> jars, List<String> others) {
    public LauncherClassPath {
        jars = List.copyOf(jars);
        others = List.copyOf(others);
    }

    public static LauncherClassPath parse(String classPath) {
        List<String> jars = new ArrayList<>();
        List<String> others = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            boolean jar = entry.toLowerCase(Locale.ROOT).endsWith(".jar") && !entry.contains("*");
            (jar ? jars : others).add(entry);
        }
        return new LauncherClassPath(jars, others);
    }
}
