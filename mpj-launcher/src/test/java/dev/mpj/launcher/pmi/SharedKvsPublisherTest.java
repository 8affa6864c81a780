package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.SharedKvsTable;
import dev.mpj.runtime.pmi.wire.ProcessMapping;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The keys the server answers itself in the table, and the sweep of tables left by launchers killed early. */
@Timeout(30)
class SharedKvsPublisherTest {
    @TempDir
    Path dir;

    @Test
    void theServersOwnKeysAreInTheTableFromTheStartAndNoPublishedPutReplacesThem() {
        SharedKvsPublisher publisher = SharedKvsPublisher.create(dir, "kvs", 2,
                Map.of(ProcessMapping.KEY, "(vector,(0,1,2))"));
        try (SharedKvsTable reader = SharedKvsTable.open(publisher.file())) {
            assertEquals("(vector,(0,1,2))", reader.get(ProcessMapping.KEY), "before any barrier");
            publisher.publish(Map.of(ProcessMapping.KEY, "(vector,(0,2,1))", "card-0", "abc"));
            assertEquals("(vector,(0,1,2))", reader.get(ProcessMapping.KEY), "what the server answers, not the put");
            assertEquals("abc", reader.get("card-0"));
        } finally {
            publisher.close();
        }
    }

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
