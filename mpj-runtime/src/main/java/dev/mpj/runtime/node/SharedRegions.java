package dev.mpj.runtime.node;

import dev.mpj.runtime.config.SegmentDirectory;
import dev.mpj.runtime.config.SegmentFiles;
import mpi.MPIException;
import org.agrona.BufferUtil;
import org.agrona.IoUtil;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory {@code MPI.Alloc_mem} gives this rank, in files its node's other ranks can map ({@link
 * NodeSegmentFiles#regionPath}), and this rank's views of the regions of those ranks, so a rendezvous from a region
 * is copied once, by the receiver, straight out of the sender's memory.
 *
 * <p>A region's file starts with a header page that carries the node segment's magic and the creator's pid at the
 * segment header's offsets, so the sweep of stale segments ({@link NodeSegmentFiles#removeStale}) knows a region
 * a killed rank left; the user's bytes start on the next page. {@link #free} and {@link #close} remove the file
 * but leave the buffer mapped: a program that still holds it reads and writes private memory, never an unmapped
 * address, and the JVM unmaps it once the buffer is unreachable. A view of a peer's region is kept until
 * {@link #close}, as the peer may send from it again.
 *
 * <p>Synchronized: under {@code THREAD_MULTIPLE} one thread may allocate while another's send looks its data up;
 * only rendezvous messages look, so the lock is not on the path of short ones.
 */
public final class SharedRegions implements AutoCloseable {
    /** The header page before a region's bytes. */
    static final int HEADER_LENGTH = 4096;

    /** The node segment's path, which regions are named after; null in a job of one (plain direct buffers). */
    private final Path segment;
    private final int rank;
    /** Where memory no peer maps is made; resolved at the first such allocation, not at {@code MPI.Init}. */
    private final SegmentDirectory privateDir;
    private final List<Region> live = new ArrayList<>();
    private final Map<Long, MappedByteBuffer> views = new HashMap<>();
    private int nextId;
    private Thread removeOnExit;
    private boolean closed;

    /**
     * @param segment this node's segment file (the regions are named after it), or null when no other rank shares
     *                the node
     */
    public SharedRegions(Path segment, int rank) {
        this(segment, rank, null);
    }

    /**
     * @param segment    this node's segment file (the regions are named after it), or null when no other rank shares
     *                   the node
     * @param privateDir where memory no peer maps is made when {@code segment} is null (the segment directory), so
     *                   that {@code Alloc_mem} is not bounded by the JVM's direct-memory limit (the heap's size by
     *                   default), as C's is not by anything but the node; null for plain direct memory
     */
    public SharedRegions(Path segment, int rank, SegmentDirectory privateDir) {
        this.segment = segment;
        this.rank = rank;
        this.privateDir = privateDir;
    }

    /**
     * A direct little-endian buffer of {@code bytes} bytes (not negative: {@code MPI.Alloc_mem} checks), zeroed, in a
     * file this node's ranks can map.
     *
     * @throws MPIException {@code ERR_OTHER} when the file cannot be made
     */
    public synchronized ByteBuffer allocate(int bytes) {
        ensureOpen();
        if (segment == null) {
            Path dir = privateDirectory();
            return track(new Region(nextId++, null, dir == null ? ByteBuffer.allocateDirect(bytes)
                    : mapPrivate(dir, bytes), false));
        }
        return map(bytes, false);
    }

    /**
     * A region for the runtime's own packed sends ({@code MpiBackend.allocTransferMemory}), which {@link #free}
     * does not accept; null when no other rank shares the node, after {@link #close}, or when the file system has no
     * room for it.
     */
    public synchronized ByteBuffer allocateForTransfers(int bytes) {
        if (segment == null || closed) {
            return null;
        }
        try {
            return map(bytes, true);
        } catch (MPIException e) {
            return null; // no room for it: the send packs into the heap and takes the channel, as without peers
        }
    }

    /** Removes the file of a region {@link #allocateForTransfers} returned; anything else is left alone. */
    public synchronized void releaseTransfers(ByteBuffer buffer) {
        removeLive(buffer, true);
    }

    /** Removes the file of live region {@code buffer} made for transfers or not, as asked; returns whether found. */
    private boolean removeLive(ByteBuffer buffer, boolean forTransfers) {
        for (int i = 0; i < live.size(); i++) {
            Region r = live.get(i);
            if (r.user == buffer && r.forTransfers == forTransfers) {
                remove(live.remove(i).file);
                return true;
            }
        }
        return false;
    }

    private ByteBuffer map(int bytes, boolean forTransfers) {
        int id = nextId++;
        Path file = NodeSegmentFiles.regionPath(segment, rank, id);
        MappedByteBuffer mapped;
        try (FileChannel channel = SegmentFiles.createOwnerOnly(file)) {
            mapped = reserveAndMap(channel, (long) HEADER_LENGTH + bytes);
        } catch (IOException | RuntimeException e) {
            remove(file);
            throw cannotMake(bytes, file, e);
        }
        ByteBuffer header = mapped.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        header.putLong(NodeSegmentDescriptor.CREATOR_PID_OFFSET, ProcessId.current());
        header.putInt(NodeSegmentDescriptor.MAGIC_OFFSET, NodeSegmentDescriptor.MAGIC);
        if (removeOnExit == null) {
            removeOnExit = new RemoveOnExit(this);
            Runtime.getRuntime().addShutdownHook(removeOnExit);
        }
        return track(new Region(id, file, mapped.slice(HEADER_LENGTH, bytes), forTransfers));
    }

    /** {@link #privateDir} resolved on this system, or null (plain direct memory) when there is none. */
    private Path privateDirectory() {
        try {
            return privateDir == null ? null : privateDir.resolve();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Memory in a file of {@code dir} that is removed as soon as it is mapped: no peer maps it, so nothing
     * can be left behind, and its pages go when the buffer is unreachable.
     */
    private ByteBuffer mapPrivate(Path dir, int bytes) {
        Path file = null;
        try {
            file = Files.createTempFile(dir, "mpj-mem-" + ProcessId.current() + "-", "", SegmentFiles.ownerOnly());
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                return reserveAndMap(channel, bytes);
            }
        } catch (IOException | RuntimeException e) {
            throw cannotMake(bytes, dir, e);
        } finally {
            remove(file);
        }
    }

    /**
     * Maps the file's first {@code length} bytes read-write after writing its every page, so that a full file system
     * (a container's small {@code /dev/shm}) is an {@link IOException} here rather than a {@code SIGBUS} at the first
     * touch of a page of the mapping, which the JVM reports as an {@link InternalError} of whatever copy happened to
     * touch it.
     */
    private static MappedByteBuffer reserveAndMap(FileChannel channel, long length) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(length, 1 << 16));
        for (long at = 0; at < length; ) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), length - at));
            at += channel.write(zeros, at);
        }
        return channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
    }

    private static MPIException cannotMake(int bytes, Path where, Exception e) {
        return new MPIException(MPIException.ERR_OTHER, "Alloc_mem: cannot make " + bytes + " bytes in " + where
                + " (is its file system full? mpj.segmentDir names another): " + e, e);
    }

    private ByteBuffer track(Region region) {
        live.add(region);
        return region.user;
    }

    /**
     * Gives back a buffer {@link #allocate} returned: its file goes (the buffer stays valid memory until
     * unreachable).
     *
     * @throws MPIException {@code ERR_BUFFER} for a buffer that is not one {@link #allocate} returned, or was freed
     */
    public synchronized void free(ByteBuffer buffer) {
        if (removeLive(buffer, false)) {
            return;
        }
        throw new MPIException(MPIException.ERR_BUFFER, "Free_mem: " + (buffer == null ? "a null buffer"
                : "a buffer that is not from Alloc_mem, or was freed already"));
    }

    /**
     * Where {@code data} (position to limit) lies within one of this rank's regions a peer can map: the region's id
     * in the high 32 bits, the offset of the data's first byte in the low; -1 when it does not lie wholly in one.
     */
    public synchronized long locate(ByteBuffer data) {
        if (segment == null || live.isEmpty() || !data.isDirect()) {
            return -1;
        }
        long from = BufferUtil.address(data) + data.position();
        long to = from + data.remaining();
        for (int i = 0; i < live.size(); i++) {
            Region r = live.get(i);
            if (from >= r.address && to <= r.address + r.user.capacity()) {
                return (long) r.id << 32 | (from - r.address);
            }
        }
        return -1;
    }

    /**
     * Region {@code id} of {@code owner}, a rank of this node, as a read-only little-endian view of its bytes: mapped
     * on first use and kept.
     *
     * @throws IOException when the region's file cannot be mapped (its owner gone, or no such region)
     */
    public synchronized ByteBuffer view(int owner, int id) throws IOException {
        ensureOpen();
        long key = (long) owner << 32 | (id & 0xffffffffL);
        MappedByteBuffer mapped = views.get(key);
        if (mapped == null) {
            if (segment == null) {
                throw new IOException("rank " + owner + " shares no node segment with rank " + rank);
            }
            try (FileChannel channel = FileChannel.open(NodeSegmentFiles.regionPath(segment, owner, id))) {
                mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            }
            dropViewsOfFreedRegions();
            views.put(key, mapped);
        }
        return mapped.duplicate().position(Math.min(HEADER_LENGTH, mapped.capacity())).slice()
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Unmaps the views of regions whose files are gone (freed, or their owner finalized): a program that allocates,
     * sends from and frees buffer after buffer would otherwise hold every freed one's pages in this rank until
     * {@link #close}. Region ids are never reused, so a dropped view is never asked for again; a view is read only
     * in the copy that asked for it, under the engine's lock, so none is in use here.
     */
    private void dropViewsOfFreedRegions() {
        views.entrySet().removeIf(e -> {
            long key = e.getKey();
            if (Files.exists(NodeSegmentFiles.regionPath(segment, (int) (key >>> 32), (int) key))) {
                return false;
            }
            IoUtil.unmap(e.getValue());
            return true;
        });
    }

    /** How many views of peers' regions this rank holds (for tests). */
    synchronized int views() {
        return views.size();
    }

    /**
     * At Finalize: removes this rank's region files (their buffers stay valid memory) and unmaps its views of
     * peers' regions, which no copy reads any more. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        removeFiles();
        for (MappedByteBuffer view : views.values()) {
            IoUtil.unmap(view);
        }
        views.clear();
        if (removeOnExit != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(removeOnExit);
            } catch (IllegalStateException e) {
                // the JVM is exiting and the hook runs anyway
            }
        }
    }

    private synchronized void removeFiles() {
        for (Region r : live) {
            remove(r.file);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new MPIException(MPIException.ERR_OTHER, "MPI has been finalized: no memory to allocate or map");
        }
    }

    /** Removes a region's file, if it has one; one that cannot be removed is left to the sweeps of the job's files. */
    private static void remove(Path file) {
        if (file != null) {
            NodeSegmentFiles.deleteQuietly(file);
        }
    }

    /**
     * One allocation: its bytes as the user sees them, where they start, its file (null with no segment), and whether
     * the runtime made it for its own sends rather than the user.
     */
    private static final class Region {
        final int id;
        final Path file;
        final ByteBuffer user;
        final long address;
        final boolean forTransfers;

        Region(int id, Path file, ByteBuffer bytes, boolean forTransfers) {
            this.id = id;
            this.file = file;
            this.forTransfers = forTransfers;
            this.user = bytes.order(ByteOrder.LITTLE_ENDIAN);
            this.address = BufferUtil.address(bytes);
        }
    }

    /** Removes the files of a rank that exits without Finalize (a class, not a lambda, as elsewhere on this path). */
    private static final class RemoveOnExit extends Thread {
        private final SharedRegions regions;

        RemoveOnExit(SharedRegions regions) {
            super("mpj-remove-shared-regions");
            this.regions = regions;
        }

        @Override
        public void run() {
            regions.removeFiles();
        }
    }
}
