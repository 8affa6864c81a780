package dev.mpj.dist;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The compiled classes of the project's modules on this JVM's class path: each module's {@code target/classes}
 * in a reactor build that stops before packaging, its jar (which carries the dev.mpj Maven descriptor) after.
 */
final class ModuleClasses {
    private ModuleClasses() {
    }

    static List<Path> onClassPath() {
        List<Path> roots = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (Files.isDirectory(p) ? p.getFileName().toString().equals("classes") && hasClasses(p)
                    : entry.endsWith(".jar") && isProjectJar(p)) {
                roots.add(p);
            }
        }
        return roots;
    }

    private static boolean hasClasses(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.anyMatch(f -> f.toString().endsWith(".class"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isProjectJar(Path jar) {
        try (JarFile j = new JarFile(jar.toFile())) {
            return j.stream().anyMatch(e -> e.getName().startsWith("META-INF/maven/dev.mpj/"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
