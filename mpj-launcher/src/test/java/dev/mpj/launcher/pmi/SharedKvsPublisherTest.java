package dev.mpj.launcher.pmi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sweep of tables left by launchers killed before their first barrier. */
@Timeout(30)
class SharedKvsPublisherTest {
    @TempDir
    Path dir;

    @Test
    void aTableWhoseLauncherIsGoneIsRemovedAndALiveOneIsKept() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path stale = Files.createFile(dir.resolve("mpj-kvs-mpj_" + gone.pid() + "_abc"));
        Path live = Files.createFile(dir.resolve("mpj-kvs-mpj_" + ProcessHandle.current().pid() + "_def"));
        Path other = Files.createFile(dir.resolve("mpj-kvs-unrelated"));
        SharedKvsPublisher.removeStale(dir);
        assertFalse(Files.exists(stale), "the dead launcher's table is removed");
        assertTrue(Files.exists(live), "a running launcher's table is kept");
        assertTrue(Files.exists(other), "a file not named after a launcher is left alone");
    }
}
