package dev.mpj.runtime.node;

import dev.mpj.runtime.config.SegmentDirectory;
import mpi.MPIException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two ranks of one node as two {@link SharedRegions} over real files: what one allocates the other maps. */
class SharedRegionsTest {
    @TempDir
    Path dir;
    private SharedRegions owner;
    private SharedRegions peer;

    private Path segment() {
        return dir.resolve("mpj-job-n0");
    }

    private void startTwoRanks() {
        owner = new SharedRegions(segment(), 0);
        peer = new SharedRegions(segment(), 1);
    }

    @AfterEach
    void close() {
        if (owner != null) {
            owner.close();
            peer.close();
        }
    }

    @Test
    void memoryIsZeroedDirectLittleEndianAndInAFileNamedAfterTheSegment() {
        startTwoRanks();
        owner.allocate(10);
        ByteBuffer b = owner.allocate(5000);
        assertTrue(b.isDirect());
        assertEquals(ByteOrder.LITTLE_ENDIAN, b.order());
        assertEquals(5000, b.capacity());
        for (int i = 0; i < b.capacity(); i++) {
            assertEquals(0, b.get(i));
        }
        assertTrue(Files.exists(NodeSegmentFiles.regionPath(segment(), 0, 1)));
        assertEquals(0, NodeSegmentFiles.removeStale(dir), "its creator runs: not stale");
    }

    @Test
    void aPeerReadsTheOwnersBytesWhereLocateSaysTheyAre() throws IOException {
        startTwoRanks();
        owner.allocate(64);
        ByteBuffer b = owner.allocate(1000);
        for (int i = 0; i < 1000; i++) {
            b.put(i, (byte) (i * 7));
        }
        long place = owner.locate(b.slice(100, 50));
        assertEquals(1, place >>> 32, "region id");
        assertEquals(100, place & 0xffffffffL, "offset");
        ByteBuffer view = peer.view(0, 1);
        assertEquals(1000, view.capacity());
        assertEquals((byte) (100 * 7), view.get(100));
        b.put(999, (byte) 42);
        assertEquals(42, peer.view(0, 1).get(999), "the same memory, not a copy");
    }

    @Test
    void memoryForTransfersIsSharedButNotFreedAsAllocMemAndGoesWhenReleased() throws IOException {
        startTwoRanks();
        ByteBuffer b = owner.allocateForTransfers(8192);
        b.put(5000, (byte) 9);
        assertEquals(0, owner.locate(b.slice(5000, 10)) >>> 32, "a send from it has a place");
        assertEquals(9, peer.view(0, 0).get(5000));
        assertThrows(MPIException.class, () -> owner.free(b), "Free_mem refuses it");
        owner.releaseTransfers(owner.allocate(16)); // an Alloc_mem buffer: left alone
        assertTrue(Files.exists(NodeSegmentFiles.regionPath(segment(), 0, 1)));
        owner.releaseTransfers(b);
        assertFalse(Files.exists(NodeSegmentFiles.regionPath(segment(), 0, 0)));
        assertEquals(-1, owner.locate(b.slice(5000, 10)), "released: no place");
    }

    @Test
    void withoutNodePeersOrAfterCloseThereIsNoMemoryForTransfers() {
        assertEquals(null, new SharedRegions(null, 0).allocateForTransfers(8192));
        startTwoRanks();
        owner.close();
        assertEquals(null, owner.allocateForTransfers(8192));
    }

    @Test
    void dataOutsideEveryRegionHasNoPlace() {
        startTwoRanks();
        ByteBuffer b = owner.allocate(100);
        assertEquals(-1, owner.locate(ByteBuffer.allocate(10)), "a heap buffer");
        assertEquals(-1, owner.locate(ByteBuffer.allocateDirect(10)), "other direct memory");
        assertEquals(-1, new SharedRegions(null, 0).locate(b), "no node peers to share with");
    }

    @Test
    void freeingRemovesTheFileAndRefusesForeignSlicedAndFreedBuffers() {
        startTwoRanks();
        ByteBuffer b = owner.allocate(100);
        assertBufferError(() -> owner.free(ByteBuffer.allocateDirect(100)));
        assertBufferError(() -> owner.free(b.slice(0, 10)));
        owner.free(b);
        assertFalse(Files.exists(NodeSegmentFiles.regionPath(segment(), 0, 0)));
        assertBufferError(() -> owner.free(b));
        assertEquals(-1, owner.locate(b), "freed memory is no longer shared");
    }

    @Test
    void aViewOfAFreedRegionIsDroppedWhenTheNextRegionIsMapped() throws IOException {
        startTwoRanks();
        ByteBuffer first = owner.allocate(100);
        owner.allocate(100);
        peer.view(0, 0);
        peer.view(0, 1);
        assertEquals(2, peer.views());
        owner.free(first);
        ByteBuffer third = owner.allocate(100);
        third.put(7, (byte) 9);
        assertEquals(9, peer.view(0, 2).get(7));
        assertEquals(2, peer.views(), "the freed region's view went, the live one stayed");
        assertEquals(0, peer.view(0, 1).get(0), "the live region is still mapped");
    }

    /**
     * On a file system too small for the region (a container's small {@code /dev/shm}), {@code Alloc_mem} fails
     * with an error naming the file system and the runtime's own transfers fall back, instead of a {@code SIGBUS}
     * at the first touch of a page. Needs a real small tmpfs, so root to mount one.
     */
    @Test
    void aFullFileSystemIsAnErrorAtAllocationNotAFaultAtFirstTouch() throws Exception {
        try (SmallTmpfs small = SmallTmpfs.mount(dir.resolve("small"), "1m")) {
            SharedRegions full = new SharedRegions(small.path().resolve("mpj-job-n0"), 0);
            MPIException e = assertThrows(MPIException.class, () -> full.allocate(4 << 20));
            assertEquals(MPIException.ERR_OTHER, e.getErrorClass());
            assertTrue(e.getMessage().contains("full"), e.getMessage());
            assertEquals(null, full.allocateForTransfers(4 << 20), "a transfer falls back to the heap");
            ByteBuffer fits = full.allocate(64 << 10);
            fits.put(fits.capacity() - 1, (byte) 1);
            full.close();
            try (var files = Files.list(small.path())) {
                assertEquals(0, files.count(), "no file left behind");
            }
        }
    }

    @Test
    void aRegionNobodyMadeCannotBeViewed() {
        startTwoRanks();
        assertThrows(IOException.class, () -> peer.view(0, 3));
    }

    @Test
    void closeRemovesTheFilesAndLeavesTheMemoryUsable() {
        startTwoRanks();
        ByteBuffer b = owner.allocate(100);
        owner.close();
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        b.put(99, (byte) 1);
        assertEquals(1, b.get(99));
    }

    @Test
    void withoutASegmentTheMemoryIsPlainDirectMemoryThatCanBeFreed() {
        SharedRegions alone = new SharedRegions(null, 0);
        ByteBuffer b = alone.allocate(16);
        assertTrue(b.isDirect());
        assertEquals(ByteOrder.LITTLE_ENDIAN, b.order());
        alone.free(b);
        assertBufferError(() -> alone.free(b));
    }

    /** With no node peer the memory is a mapped file removed at once: not direct memory, and nothing to leave. */
    @Test
    void withoutPeersTheMemoryIsAnUnlinkedMappingOutsideTheDirectMemoryLimit() throws IOException {
        Path privateDir = Files.createDirectories(dir.resolve("private"));
        SharedRegions alone = new SharedRegions(null, 0, new SegmentDirectory(privateDir, false));
        long directBefore = directMemoryUsed();
        ByteBuffer b = alone.allocate(8 << 20);
        assertTrue(directMemoryUsed() - directBefore < 8 << 20, "not counted as direct memory");
        assertTrue(b.isDirect());
        assertEquals(ByteOrder.LITTLE_ENDIAN, b.order());
        b.put(b.capacity() - 1, (byte) 5);
        assertEquals(5, b.get(b.capacity() - 1));
        try (var files = Files.list(privateDir)) {
            assertEquals(0, files.count(), "the file is gone once mapped");
        }
        assertEquals(-1, alone.locate(b), "no peer to share with");
        alone.free(b);
        assertBufferError(() -> alone.free(b));
    }

    private static long directMemoryUsed() {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(p -> p.getName().equals("direct")).mapToLong(BufferPoolMXBean::getMemoryUsed).sum();
    }

    private static void assertBufferError(Runnable call) {
        MPIException e = assertThrows(MPIException.class, call::run);
        assertEquals(MPIException.ERR_BUFFER, e.getErrorClass(), e.getMessage());
    }
}
