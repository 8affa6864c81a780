package dev.mpj.runtime.node;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real tmpfs of a given size mounted on a directory, as a container's small {@code /dev/shm}: a test that needs one
 * is skipped where mounting needs a privilege this process lacks. Closing unmounts it lazily, since the test's JVM
 * may still map a file of it.
 */
final class SmallTmpfs implements AutoCloseable {
    private final Path mountPoint;

    private SmallTmpfs(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /** Mounts a tmpfs of {@code size} ({@code mount}'s syntax, "1m") on {@code dir}, made if absent. */
    static SmallTmpfs mount(Path dir, String size) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString()),
                "mounting a tmpfs needs root");
        return new SmallTmpfs(dir);
    }

    Path path() {
        return mountPoint;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run("umount", "-l", mountPoint.toString());
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().transferTo(OutputStream.nullOutputStream());
        return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    }
}
