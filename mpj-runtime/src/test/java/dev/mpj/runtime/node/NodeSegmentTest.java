package dev.mpj.runtime.node;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class NodeSegmentTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final Duration SHORT = Duration.ofMillis(300);

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("mpj-test-n0");
    }

    @Test
    void otherLocalRanksMapTheRootsSegmentEvenWhenTheyStartFirst() throws Exception {
        List<Future<NodeSegment>> openers = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (int i = 0; i < 3; i++) {
                openers.add(pool.submit(() -> NodeSegment.open(file(), 0, 4, 10, TIMEOUT)));
            }
            Thread.sleep(200); // the openers wait for a file that does not exist yet
            try (NodeSegment root = NodeSegment.create(file(), 0, 4, 10, 40, 4096, TIMEOUT)) {
                assertTrue(root.isCreator());
                for (Future<NodeSegment> f : openers) {
                    try (NodeSegment s = f.get(20, TimeUnit.SECONDS)) {
                        assertFalse(s.isCreator());
                        assertEquals(0, s.nodeId());
                        assertEquals(4, s.localSize());
                        assertEquals(10, s.jobSize());
                        assertEquals(40, s.cardCapacity());
                        assertEquals(4096, s.transportRegion().capacity());
                        assertEquals(CollectiveRoom.length(4), s.collectiveRegion().capacity());
                        root.collectiveRegion().putLong(8, 0x5eed);
                        assertEquals(0x5eed, s.collectiveRegion().getLong(8), "the collective room is shared");
                        root.transportRegion().putLong(4088, -1);
                        assertEquals(0, s.collectiveRegion().getLong(0), "the rooms do not overlap");
                        assertEquals(FoldRoom.length(4), s.foldRegion().capacity());
                        root.foldRegion().putLong(16, 0x5eed);
                        assertEquals(0x5eed, s.foldRegion().getLong(16), "the fold room is shared");
                        root.collectiveRegion().putLong((int) CollectiveRoom.length(4) - 8, -1);
                        assertEquals(0, s.foldRegion().getLong(0), "it lies after the collective room");
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSegmentOfAnotherLayoutVersionIsRejected() throws IOException {
        writeReadySegment(NodeSegmentDescriptor.LAYOUT_VERSION + 1, 0);
        NodeSegmentException e = assertThrows(NodeSegmentException.class,
                () -> NodeSegment.open(file(), 0, 2, 4, SHORT));
        assertTrue(e.getMessage().contains("layout version " + (NodeSegmentDescriptor.LAYOUT_VERSION + 1)
                + ", this rank reads version " + NodeSegmentDescriptor.LAYOUT_VERSION), e.getMessage());
    }

    @Test
    void aSegmentMadeForAnotherNodeIsRejected() throws IOException {
        writeReadySegment(NodeSegmentDescriptor.LAYOUT_VERSION, 5);
        NodeSegmentException e = assertThrows(NodeSegmentException.class,
                () -> NodeSegment.open(file(), 0, 2, 4, SHORT));
        assertTrue(e.getMessage().contains("made for node 5"), e.getMessage());
    }

    @Test
    void aSegmentThatNeverBecomesReadyTimesOut() throws IOException {
        writeReadySegment(0, 0);
        NodeSegmentException e = assertThrows(NodeSegmentException.class,
                () -> NodeSegment.open(file(), 0, 2, 4, SHORT));
        assertTrue(e.getMessage().contains("did not become ready within 0.3 s"), e.getMessage());
    }

    @Test
    void openTimesOutWhenNoRootCreatesTheSegment() {
        NodeSegmentException e = assertThrows(NodeSegmentException.class,
                () -> NodeSegment.open(file(), 0, 2, 4, SHORT));
        assertTrue(e.getMessage().contains("was not created by the node root within 0.3 s"), e.getMessage());
    }

    /** What can stand at, or on the way to, the segment's path instead of a segment, and what the error says. */
    enum Obstacle {
        SEGMENT_DIRECTORY_IS_A_FILE("Not a directory") {
            @Override
            Path place(Path dir) throws IOException {
                return Files.writeString(dir.resolve("not-a-directory"), "x").resolve("mpj-test-n0");
            }
        },
        DIRECTORY_AT_THE_SEGMENT_PATH("is a directory, not a file") {
            @Override
            Path place(Path dir) throws IOException {
                return Files.createDirectory(dir.resolve("mpj-test-n0"));
            }
        },
        FILE_SHORTER_THAN_A_HEADER("holds 8 bytes, fewer than a segment's") {
            @Override
            Path place(Path dir) throws IOException {
                return Files.write(dir.resolve("mpj-test-n0"), new byte[8]);
            }
        };

        final String cause;

        Obstacle(String cause) {
            this.cause = cause;
        }

        abstract Path place(Path dir) throws IOException;
    }

    @ParameterizedTest
    @EnumSource(Obstacle.class)
    void aRankWaitingForTheSegmentNamesWhatStandsInItsWayRatherThanTimingOut(Obstacle obstacle) throws IOException {
        Path segment = obstacle.place(dir);
        NodeSegmentException e = assertThrows(NodeSegmentException.class,
                () -> NodeSegment.open(segment, 0, 2, 4, TIMEOUT));
        assertTrue(e.getMessage().contains(segment.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(obstacle.cause), e.getMessage());
        assertFalse(e.getMessage().contains("within"), "not a timeout: " + e.getMessage());
    }

    @Test
    void creatingASegmentThatExistsFailsClearly() throws IOException {
        try (NodeSegment ignored = NodeSegment.create(file(), 0, 1, 1, 8, 0, TIMEOUT)) {
            NodeSegmentException e = assertThrows(NodeSegmentException.class,
                    () -> NodeSegment.create(file(), 0, 1, 1, 8, 0, TIMEOUT));
            assertTrue(e.getMessage().contains("exists already"), e.getMessage());
            assertEquals(List.of(file()), filesBeside(file()), "the failed creator's own file is gone");
        }
    }

    /**
     * A segment larger than its file system's free space (a container's small {@code /dev/shm}) is refused when it is
     * made, naming the directory, rather than mapped sparse to fault at the first touch of a page it cannot back.
     * Needs a real small tmpfs, so root to mount one.
     */
    @Test
    void aSegmentLargerThanItsFileSystemIsRefusedWhenMade() throws Exception {
        try (SmallTmpfs small = SmallTmpfs.mount(dir.resolve("small"), "4m")) {
            Path file = small.path().resolve("mpj-test-n0");
            NodeSegmentException e = assertThrows(NodeSegmentException.class,
                    () -> NodeSegment.create(file, 0, 2, 2, 8, 4 << 20, TIMEOUT));
            assertTrue(e.getMessage().contains("full") && e.getMessage().contains(small.path().toString()),
                    e.getMessage());
            assertEquals(List.of(), filesBeside(file), "nothing left behind");
            try (NodeSegment fits = NodeSegment.create(file, 0, 2, 2, 8, 0, TIMEOUT)) {
                assertEquals(List.of(file), filesBeside(file));
            }
        }
    }

    @Test
    void aCreatedSegmentIsPublishedWholeUnderItsNameAlone() throws IOException {
        try (NodeSegment ignored = NodeSegment.create(file(), 0, 1, 1, 8, 0, TIMEOUT)) {
            assertEquals(List.of(file()), filesBeside(file()), "no file left under the name it was filled under");
            UnsafeBuffer header = new UnsafeBuffer(Files.readAllBytes(file()));
            assertEquals(ProcessHandle.current().pid(), NodeSegmentDescriptor.creatorPid(header),
                    "the header is in the published file");
        }
    }

    private static List<Path> filesBeside(Path file) throws IOException {
        try (Stream<Path> s = Files.list(file.getParent())) {
            return s.toList();
        }
    }

    @Test
    void barrierHoldsEveryRankUntilAllArriveRoundAfterRound() throws Exception {
        int ranks = 8;
        int rounds = 100;
        try (NodeSegment root = NodeSegment.create(file(), 0, ranks, ranks, 8, 0, TIMEOUT)) {
            List<Callable<Void>> bodies = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                int rank = r;
                bodies.add(() -> {
                    NodeSegment s = rank == 0 ? root : NodeSegment.open(file(), 0, ranks, ranks, TIMEOUT);
                    for (int round = 1; round <= rounds; round++) {
                        s.putCard(rank, ByteBuffer.allocate(4).putInt(round).array());
                        s.barrier(); // every card of this round is written ...
                        for (int peer = 0; peer < ranks; peer++) {
                            assertEquals(round, ByteBuffer.wrap(s.card(peer)).getInt(), "rank " + peer);
                        }
                        s.barrier(); // ... and read before anyone writes the next
                    }
                    if (rank != 0) {
                        s.close();
                    }
                    return null;
                });
            }
            runAll(bodies);
        }
    }

    @Test
    void barrierTimesOutNamingHowManyArrived() {
        try (NodeSegment root = NodeSegment.create(file(), 3, 2, 2, 8, 0, SHORT)) {
            NodeSegmentException e = assertThrows(NodeSegmentException.class, root::barrier);
            assertTrue(e.getMessage().contains("node barrier on node 3 timed out after 0.3 s: 1 of 2 local ranks"
                    + " arrived"), e.getMessage());
        }
    }

    @Test
    void cardSlotsHoldCardsOfDifferentLengths() {
        try (NodeSegment root = NodeSegment.create(file(), 0, 2, 3, 23, 0, TIMEOUT);
             NodeSegment other = NodeSegment.open(file(), 0, 2, 3, TIMEOUT)) {
            byte[] full = bytes(23);
            byte[] shorter = bytes(5);
            root.putCard(0, full);
            other.putCard(2, shorter);
            assertArrayEquals(full, other.card(0));
            assertArrayEquals(shorter, root.card(2));
            assertEquals(5, root.cardLength(2));
            assertNull(root.card(1), "an empty slot");
            assertEquals(0, root.cardLength(1));
            assertThrows(IllegalArgumentException.class, () -> root.putCard(1, bytes(24)));
            assertThrows(IllegalArgumentException.class, () -> root.putCard(1, new byte[0]));
            assertThrows(IndexOutOfBoundsException.class, () -> root.putCard(3, shorter));
        }
    }

    @Test
    void cardTableViewShowsEverySlotWithItsLengthField() {
        try (NodeSegment root = NodeSegment.create(file(), 0, 1, 3, 10, 0, TIMEOUT)) {
            root.putCard(1, bytes(7));
            ByteBuffer table = root.cardTable();
            int slot = root.cardSlotLength();
            assertEquals(NodeSegmentDescriptor.cardSlotLength(10), slot);
            assertEquals(3 * slot, table.capacity());
            assertEquals(7, table.getInt(slot + NodeSegmentDescriptor.CARD_LENGTH_FIELD_OFFSET));
            assertEquals(bytes(7)[6], table.get(slot + NodeSegmentDescriptor.CARD_DATA_OFFSET + 6));
        }
    }

    @Test
    void longestOfferedCardLengthIsTheMaximumOverLocalRanks() {
        try (NodeSegment root = NodeSegment.create(file(), 0, 2, 2, 64, 0, TIMEOUT);
             NodeSegment other = NodeSegment.open(file(), 0, 2, 2, TIMEOUT)) {
            assertEquals(23, root.offerCardLength(23));
            assertEquals(31, other.offerCardLength(31));
            assertEquals(31, root.offerCardLength(12));
            assertEquals(31, other.longestCardOffered());
        }
    }

    @Test
    void theFileIsOwnerOnly() throws IOException {
        try (NodeSegment ignored = NodeSegment.create(file(), 0, 1, 1, 8, 0, TIMEOUT)) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file())));
        }
    }

    @Test
    void theLastRankToCloseRemovesTheFile() {
        NodeSegment root = NodeSegment.create(file(), 0, 2, 2, 8, 0, TIMEOUT);
        NodeSegment other = NodeSegment.open(file(), 0, 2, 2, TIMEOUT);
        root.close();
        assertTrue(Files.exists(file()), "a rank still uses it");
        other.close();
        assertFalse(Files.exists(file()));
        assertThrows(IllegalStateException.class, other::barrier, "unmapped memory is never touched");
        other.close(); // idempotent
    }

    @Test
    void attachLetsTheNodeRootCreateTheSegmentNamedAfterJobAndNode() throws Exception {
        NodeMap map = NodeMap.blocks(4, 2);
        Settings settings = Settings.defaults().with(Setting.SEGMENT_DIR, dir.toString())
                .with(Setting.SHM_TRANSPORT_BYTES, "128");
        String job = "kvs_12_0_345_host";
        List<Callable<Void>> ranks = new ArrayList<>();
        for (int rank : map.ranksOn(1)) {
            ranks.add(() -> {
                try (NodeSegment s = NodeSegment.attach(map, rank, job, settings, 32)) {
                    assertEquals(rank == 2, s.isCreator());
                    assertEquals(dir.resolve("mpj-kvs_12_0_345_host-n1"), s.file());
                    assertEquals(128, s.transportRegion().capacity());
                    s.barrier();
                }
                return null;
            });
        }
        runAll(ranks);
        assertFalse(Files.exists(dir.resolve("mpj-kvs_12_0_345_host-n1")));
    }

    @Test
    void segmentsLiveInDevShmByDefault() {
        String job = "test-" + ThreadLocalRandom.current().nextInt(1 << 30);
        try (NodeSegment s = NodeSegment.attach(NodeMap.blocks(1, 1), 0, job, Settings.defaults(), 8)) {
            Path expected = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm")
                    : Path.of(System.getProperty("java.io.tmpdir"));
            assertEquals(expected.resolve("mpj-" + job + "-n0"), s.file());
            assertTrue(Files.exists(s.file()));
        }
    }

    @Test
    @Tag("multi-jvm")
    void aRankInAnotherProcessMapsTheSegmentAndWritesItsCard() throws Exception {
        try (NodeSegment root = NodeSegment.create(file(), 0, 2, 3, 32, 0, TIMEOUT)) {
            root.putCard(0, "card of rank 0".getBytes(StandardCharsets.US_ASCII));
            Process child = ChildJvm.start(true, "open", file().toString(), "3", "2");
            root.barrier();
            assertEquals("card of rank 2", new String(root.card(2), StandardCharsets.US_ASCII));
            root.barrier();
            ChildJvm.Result r = ChildJvm.finish(child);
            assertEquals(0, r.exitCode(), r.output());
            assertTrue(r.output().contains("root card: card of rank 0"), r.output());
        }
    }

    @Test
    @Tag("multi-jvm")
    void aCreatorThatExitsWithoutClosingRemovesTheFile() throws Exception {
        ChildJvm.Result r = ChildJvm.finish(ChildJvm.start(true, "create-and-exit", file().toString()));
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("created"), r.output());
        assertFalse(Files.exists(file()));
    }

    @Test
    @Tag("multi-jvm")
    void withoutTheAgronaFlagTheSegmentNamesTheFlagToAdd() throws Exception {
        ChildJvm.Result r = ChildJvm.finish(ChildJvm.start(false, "create-and-exit", file().toString()));
        assertEquals(1, r.exitCode(), r.output());
        assertTrue(r.output().contains("NodeSegmentException: the node segment (Agrona 2.x) needs the JVM flag"
                + " '--add-exports java.base/jdk.internal.misc=ALL-UNNAMED'"), r.output());
        assertFalse(Files.exists(file()));
    }

    // ---- helpers ----

    /** A segment file written by hand: a ready header of the given version (0: never ready) for node {@code node}. */
    private void writeReadySegment(int version, int node) throws IOException {
        int length = NodeSegmentDescriptor.segmentLength(2, 4, 8, 0);
        MappedByteBuffer mapped = IoUtil.mapNewFile(file().toFile(), length);
        try {
            UnsafeBuffer b = new UnsafeBuffer(mapped);
            NodeSegmentDescriptor.fillHeader(b, node, 2, 4, 8, 0, 1);
            b.putIntVolatile(NodeSegmentDescriptor.LAYOUT_VERSION_OFFSET, version);
        } finally {
            IoUtil.unmap(mapped);
        }
    }

    private static byte[] bytes(int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (length * 7 + i);
        }
        return b;
    }

    private static void runAll(List<Callable<Void>> bodies) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(bodies.size());
        try {
            for (Future<Void> f : pool.invokeAll(bodies, 50, TimeUnit.SECONDS)) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
