package dev.mpj.runtime.node;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodeSegmentFilesTest {
    @TempDir
    Path dir;

    @Test
    void nameIsPrefixJobIdAndNode() {
        assertEquals(dir.resolve("mpj-kvs_1109_0_1085937641_vm-n3"),
                NodeSegmentFiles.path(dir, "kvs_1109_0_1085937641_vm", 3));
        assertEquals(dir.resolve("mpj-2.0-n0"), NodeSegmentFiles.path(dir, "2.0", 0), "a Slurm job.step id");
    }

    @Test
    void charactersUnfitForAFileNameAreReplaced() {
        assertEquals("a_b_c_d", NodeSegmentFiles.sanitise("a/b c\nd"));
        assertEquals(dir, NodeSegmentFiles.path(dir, "../..", 0).getParent(), "never outside the directory");
    }

    @Test
    void longJobIdsAreShortenedButStayDistinct() {
        String a = "x".repeat(250) + "a";
        String b = "x".repeat(250) + "b";
        assertTrue(NodeSegmentFiles.sanitise(a).length() <= 96);
        assertNotEquals(NodeSegmentFiles.sanitise(a), NodeSegmentFiles.sanitise(b));
    }

    @Test
    void removeAllRemovesEveryNodeOfTheJobAndNothingElse() throws IOException {
        for (String name : new String[]{"mpj-job-n0", "mpj-job-n1", "mpj-job-n12", "mpj-job-n2.part-77",
                "mpj-job-n1x-n0", "mpj-jobs-n0", "mpj-job-n", "other-job-n0", "mpj-job-n3.part-", "mpj-jobs-n3.part-7"}) {
            Files.createFile(dir.resolve(name));
        }
        assertEquals(4, NodeSegmentFiles.removeAll(dir, "job"));
        assertFalse(Files.exists(dir.resolve("mpj-job-n12")));
        assertFalse(Files.exists(dir.resolve("mpj-job-n2.part-77")), "a segment being filled is the job's too");
        for (String kept : new String[]{"mpj-job-n1x-n0", "mpj-jobs-n0", "mpj-job-n", "other-job-n0",
                "mpj-job-n3.part-", "mpj-jobs-n3.part-7"}) {
            assertTrue(Files.exists(dir.resolve(kept)), kept);
        }
    }

    @Test
    void removeAllRemovesTheSharedRegionsOfTheJob() throws IOException {
        Path segment = NodeSegmentFiles.path(dir, "job", 1);
        Files.createFile(NodeSegmentFiles.regionPath(segment, 3, 12));
        for (String kept : new String[]{"mpj-job-n1.mem-3", "mpj-job-n1.mem--1", "mpj-job-n1.mem-3-",
                "mpj-jobs-n1.mem-3-12"}) {
            Files.createFile(dir.resolve(kept));
        }
        assertEquals(dir.resolve("mpj-job-n1.mem-3-12"), NodeSegmentFiles.regionPath(segment, 3, 12));
        assertEquals(1, NodeSegmentFiles.removeAll(dir, "job"));
        try (var left = Files.list(dir)) {
            assertEquals(4, left.count(), "names this runtime does not make, or another job's");
        }
    }

    @Test
    @Timeout(30)
    void removeStaleRemovesSharedRegionsWhoseCreatorIsGone() throws Exception {
        writeSegment("mpj-old-job-n0.mem-1-0", goneProcessId());
        writeSegment("mpj-running-job-n0.mem-1-0", ProcessHandle.current().pid());

        assertEquals(1, NodeSegmentFiles.removeStale(dir));
        assertTrue(Files.exists(dir.resolve("mpj-running-job-n0.mem-1-0")));
    }

    @Test
    void removeAllInAMissingDirectoryRemovesNothing() {
        assertEquals(0, NodeSegmentFiles.removeAll(dir.resolve("missing"), "job"));
    }

    @Test
    void directoryIsTheSettingWhenItExists() {
        assertEquals(dir, NodeSegmentFiles.directory(Settings.defaults().with(Setting.SEGMENT_DIR, dir.toString())));
    }

    @Test
    void anExplicitDirectoryThatDoesNotExistIsAnError() {
        Settings s = Settings.defaults().with(Setting.SEGMENT_DIR, dir.resolve("missing").toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeSegmentFiles.directory(s));
        assertTrue(e.getMessage().contains("mpj.segmentDir"), e.getMessage());
    }

    @Test
    @Timeout(30)
    void removeStaleRemovesSegmentsWhoseCreatorIsGoneAndNothingElse() throws Exception {
        long gone = goneProcessId();
        long alive = ProcessHandle.current().pid();
        writeSegment("mpj-old-job-n0", gone);
        writeSegment("mpj-old-job-n3", gone);
        writeSegment("mpj-running-job-n0", alive);
        writeSegment("mpj-being-created-n0", 0);
        writeSegment("mpj-not-a-segment", gone);
        writeSegment("other-job-n0", gone);
        Files.write(dir.resolve("mpj-no-magic-n0"), new byte[256]);
        Files.write(dir.resolve("mpj-short-n0"), new byte[8]);

        assertEquals(2, NodeSegmentFiles.removeStale(dir));
        assertFalse(Files.exists(dir.resolve("mpj-old-job-n0")));
        assertFalse(Files.exists(dir.resolve("mpj-old-job-n3")));
        for (String kept : new String[]{"mpj-running-job-n0", "mpj-being-created-n0", "mpj-not-a-segment",
                "other-job-n0", "mpj-no-magic-n0", "mpj-short-n0"}) {
            assertTrue(Files.exists(dir.resolve(kept)), kept);
        }
    }

    @Test
    @Timeout(30)
    void removeStaleRemovesSegmentsBeingFilledWhoseCreatorIsGone() throws Exception {
        long gone = goneProcessId();
        long alive = ProcessHandle.current().pid();
        Path dead = NodeSegmentFiles.partPath(dir.resolve("mpj-killed-n0"), gone);
        Path filling = NodeSegmentFiles.partPath(dir.resolve("mpj-filling-n0"), alive);
        Files.write(dead, new byte[8]); // killed before it wrote a header
        Files.write(filling, new byte[8]);
        Files.write(dir.resolve("mpj-killed-n0.part-x"), new byte[8]);

        assertEquals(1, NodeSegmentFiles.removeStale(dir));
        assertFalse(Files.exists(dead));
        assertTrue(Files.exists(filling), "its creator still fills it");
        assertTrue(Files.exists(dir.resolve("mpj-killed-n0.part-x")), "not a name this runtime makes");
    }

    @Test
    void thePidOfASegmentBeingFilledIsReadFromItsName() {
        assertEquals(4242, NodeSegmentFiles.partCreator("mpj-kvs_1_0-n3.part-4242"));
        assertEquals(-1, NodeSegmentFiles.partCreator("mpj-kvs_1_0-n3"));
        assertEquals(-1, NodeSegmentFiles.partCreator("mpj-kvs_1_0-n3.part-"));
        assertEquals(-1, NodeSegmentFiles.partCreator("mpj-kvs_1_0-nx.part-1"));
        assertEquals(-1, NodeSegmentFiles.partCreator("mpj-kvs_1_0-n3.part-1x"));
        assertEquals(-1, NodeSegmentFiles.partCreator("mpj-kvs_1_0-n3.part-" + "9".repeat(30)));
    }

    @Test
    void removeStaleInAMissingDirectoryRemovesNothing() {
        assertEquals(0, NodeSegmentFiles.removeStale(dir.resolve("missing")));
    }

    /** The pid of a process that has ended. */
    private static long goneProcessId() throws Exception {
        Process finished = new ProcessBuilder("true").start();
        finished.waitFor();
        return finished.pid();
    }

    /** A segment file whose header is complete, as its creator {@code creatorPid} (0: none yet) left it. */
    private void writeSegment(String name, long creatorPid) throws IOException {
        byte[] bytes = new byte[NodeSegmentDescriptor.CARD_TABLE_START];
        UnsafeBuffer header = new UnsafeBuffer(bytes);
        NodeSegmentDescriptor.fillHeader(header, 0, 1, 1, 8, 0, creatorPid);
        NodeSegmentDescriptor.signalReady(header);
        if (creatorPid == 0) {
            header.putInt(NodeSegmentDescriptor.MAGIC_OFFSET, 0); // the creator has written nothing yet
        }
        Files.write(dir.resolve(name), bytes);
    }
}
