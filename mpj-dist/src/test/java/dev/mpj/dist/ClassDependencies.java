package dev.mpj.dist;

import dev.mpj.dist.PackageCycles.ClassEdge;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

/** The class-to-class dependencies among compiled classes, as the JDK's jdeps reports them. */
final class ClassDependencies {
    /** A class line of {@code jdeps -verbose:class}: indented, then "from -> to", then where {@code to} is. */
    private static final Pattern CLASS_LINE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s");

    private ClassDependencies() {
    }

    /**
     * The dependencies between classes of these class directories and jars that cross a package boundary and
     * stay among their packages (uses of the JDK and of libraries are left out).
     */
    static List<ClassEdge> among(List<Path> roots) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
                .orElseThrow(() -> new IllegalStateException("this JDK has no jdeps tool"));
        List<String> args = new ArrayList<>(List.of("-verbose:class"));
        roots.forEach(r -> args.add(r.toString()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = jdeps.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
        if (code != 0) {
            throw new IllegalStateException("jdeps " + args + " exited with " + code + ":\n" + err + out);
        }
        List<ClassEdge> all = new ArrayList<>();
        Set<String> packages = new HashSet<>();
        for (String line : out.toString().split("\n")) {
            Matcher m = CLASS_LINE.matcher(line);
            if (m.find()) {
                ClassEdge e = new ClassEdge(m.group(1), m.group(2));
                all.add(e);
                packages.add(e.fromPackage());
            }
        }
        return all.stream()
                .filter(e -> packages.contains(e.toPackage()))
                .toList();
    }
}
