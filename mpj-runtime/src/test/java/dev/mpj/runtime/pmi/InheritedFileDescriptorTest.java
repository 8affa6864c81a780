package dev.mpj.runtime.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mpj.runtime.pmi.wire.PmiException;
import dev.mpj.runtime.testing.SmallJvm;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Surefire runs without --add-opens java.base/java.io, so these pass only through the Unsafe path. */
class InheritedFileDescriptorTest {
    @Test
    void opensAnAlreadyOpenDescriptorByNumber(@TempDir Path dir) throws IOException {
        Path proc = Path.of("/proc/self/fd");
        assumeTrue(Files.isDirectory(proc), "needs /proc/self/fd");
        Path file = Files.writeString(dir.resolve("inherited"), "from the parent");
        try (FileInputStream original = new FileInputStream(file.toFile())) {
            int fd = numberOf(proc, file);
            assertTrue(original.getFD().valid());
            FileDescriptor alias = InheritedFileDescriptor.of(fd);
            // Not closed: closing the alias would close the original's descriptor.
            @SuppressWarnings("resource")
            FileInputStream in = new FileInputStream(alias);
            assertEquals("from the parent", new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        }
    }

    /**
     * A rank under Hydra or Slurm opens its PMI descriptor at its start: calling {@code sun.misc.Unsafe} through
     * reflection there parsed the methods' annotations and spun proxy classes for them.
     */
    @Test
    @Tag("multi-jvm")
    @Timeout(60)
    void opensTheDescriptorWithoutSpinningProxyClasses() throws Exception {
        String output = SmallJvm.run(InheritedDescriptorMain.class, "-Xlog:class+load=info");
        assertTrue(output.contains("opened true"), output);
        assertTrue(output.contains("dev.mpj.runtime.pmi.InheritedFileDescriptor "), "class+load logged: " + output);
        assertFalse(output.contains("$Proxy"), "a proxy class was spun:\n" + output);
    }

    @Test
    void rejectsNegativeNumbers() {
        assertThrows(PmiException.class, () -> InheritedFileDescriptor.of(-1));
    }

    private static int numberOf(Path proc, Path file) throws IOException {
        Integer found = null;
        try (Stream<Path> fds = Files.list(proc)) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).equals(file.toRealPath())) {
                        found = Integer.valueOf(fd.getFileName().toString());
                    }
                } catch (IOException e) {
                    // the directory's own descriptor vanishes while listing
                }
            }
        }
        assertNotNull(found, "descriptor of " + file);
        return found;
    }
}
