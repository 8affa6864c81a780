package dev.mpj.runtime.node;

import dev.mpj.runtime.config.SegmentFiles;
import dev.mpj.runtime.config.Settings;
import org.agrona.IoUtil;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static dev.mpj.runtime.node.NodeSegmentDescriptor.ATTACHED_OFFSET;
import static dev.mpj.runtime.node.NodeSegmentDescriptor.BARRIER_COUNT_OFFSET;
import static dev.mpj.runtime.node.NodeSegmentDescriptor.BARRIER_SENSE_OFFSET;
import static dev.mpj.runtime.node.NodeSegmentDescriptor.CARD_DATA_OFFSET;
import static dev.mpj.runtime.node.NodeSegmentDescriptor.CARD_LENGTH_FIELD_OFFSET;
import static dev.mpj.runtime.node.NodeSegmentDescriptor.LONGEST_CARD_OFFSET;

/**
 * One rank's view of its node segment (laid out by {@link NodeSegmentDescriptor}): the node root
 * {@linkplain #create creates} it, the other ranks of the node {@linkplain #open open} it and wait until it is
 * ready. It gives the node barrier, the business-card table (one slot per rank of the job) and the room reserved
 * for the shared-memory transport. Every wait idles with back-off (spin, yield, park) and ends with a
 * {@link NodeSegmentException} after the timeout instead of hanging.
 *
 * <p>The file is owner-only (0600) from the moment it exists. It is removed by the last rank to
 * {@link #close()} (call it after a node barrier that every local rank passed after opening, e.g. at
 * Finalize), by the creator's JVM if it exits without closing, and by {@code mpjrun} when the job ends.
 *
 * <p>Not thread-safe: one instance per rank. Using an instance after {@link #close()} raises
 * {@link IllegalStateException} (the memory is unmapped by then).
 */
public final class NodeSegment implements AutoCloseable {
    /** How often a rank waiting for its root's file asks whether something other than time stands in the way. */
    private static final long CHECK_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Path file;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final boolean creator;
    private final long timeoutNanos;
    private final IdleStrategy idle = newIdleStrategy();
    private final Thread removeOnExit;
    private int barrierSense;
    private boolean closed;

    /** {@code part}: the creator's name for the file while it fills it; null for the other ranks. */
    private NodeSegment(Path file, Path part, MappedByteBuffer mapped, long timeoutNanos) {
        this.file = file;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
        this.creator = part != null;
        this.timeoutNanos = timeoutNanos;
        this.removeOnExit = creator ? new RemoveOnExit(file, part) : null;
    }

    /**
     * This rank's node segment: the node root creates it, the other local ranks open it. The file is
     * {@link NodeSegmentFiles#path} in {@link NodeSegmentFiles#directory}; the transport's room is
     * {@link Settings#shmTransportBytes()}; waits end after {@link Settings#initTimeoutSeconds()}.
     *
     * @param cardCapacity the longest business card a slot holds (the same on every rank of the job)
     */
    public static NodeSegment attach(NodeMap map, int rank, String jobId, Settings settings, int cardCapacity) {
        int node = map.nodeOf(rank);
        Path file = NodeSegmentFiles.path(NodeSegmentFiles.directory(settings), jobId, node);
        Duration timeout = Duration.ofSeconds(settings.initTimeoutSeconds());
        return map.isRoot(rank)
                ? create(file, node, map.localSize(node), map.size(), cardCapacity, settings.shmTransportBytes(),
                timeout)
                : open(file, node, map.localSize(node), map.size(), timeout);
    }

    /**
     * Creates, fills and publishes the segment (the node root's part).
     *
     * @param timeout how long {@link #barrier()} waits
     * @throws NodeSegmentException when the file exists already or cannot be created, or the JVM lacks the
     *                              flag Agrona needs
     */
    public static NodeSegment create(Path file, int nodeId, int localSize, int jobSize, int cardCapacity,
                                     int transportLength, Duration timeout) {
        UnsafeAccess.require();
        if (localSize < 1 || localSize > jobSize || nodeId < 0) {
            throw new IllegalArgumentException("node " + nodeId + " of " + localSize + " ranks in a job of "
                    + jobSize);
        }
        int length = NodeSegmentDescriptor.segmentLength(localSize, jobSize, cardCapacity, transportLength);
        long pid = ProcessId.current();
        // Filled under a name that carries this pid, then published by a link: a creator killed half-way leaves
        // no file without a header, which no later job could tell from one still being made.
        Path part = NodeSegmentFiles.partPath(file, pid);
        MappedByteBuffer mapped;
        // The JDK rather than IoUtil.mapNewFile: the file must be owner-only from its first moment. Its pages are
        // not written here (that would cost MPI.Init a pass over every ring), so room is checked instead.
        try (FileChannel channel = SegmentFiles.createOwnerOnly(part)) {
            SegmentFiles.requireRoom(part, length);
            mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
        } catch (IOException | UnsupportedOperationException e) {
            remove(part);
            throw new NodeSegmentException("cannot create the node segment " + file + ": " + e, e);
        }
        NodeSegment segment = new NodeSegment(file, part, mapped, timeout.toNanos());
        Runtime.getRuntime().addShutdownHook(segment.removeOnExit);
        UnsafeBuffer b = segment.buffer;
        NodeSegmentDescriptor.fillHeader(b, nodeId, localSize, jobSize, cardCapacity, transportLength, pid);
        b.putInt(ATTACHED_OFFSET, 1);
        NodeSegmentDescriptor.signalReady(b);
        try {
            publish(part, file);
        } catch (RuntimeException e) {
            // the name belongs to someone else: leave it
            IoUtil.unmap(mapped);
            segment.closed = true;
            Runtime.getRuntime().removeShutdownHook(segment.removeOnExit);
            throw e;
        }
        // after publishing, so the node's other ranks do not wait for it
        NodeSegmentFiles.removeStale(file.getParent());
        return segment;
    }

    /**
     * Maps the segment the node root creates, waiting (with back-off, up to {@code timeout}) for the file to
     * appear and be ready, and checks it was made for this node.
     *
     * @throws NodeSegmentException on timeout, when the path cannot be read or holds no segment (naming the cause),
     *                              on a segment of another layout version or node, or when the JVM lacks the flag
     *                              Agrona needs
     */
    public static NodeSegment open(Path file, int nodeId, int localSize, int jobSize, Duration timeout) {
        UnsafeAccess.require();
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long nextCheck = start + CHECK_INTERVAL_NANOS;
        IdleStrategy idle = newIdleStrategy();
        long length;
        while ((length = fileLength(file)) < NodeSegmentDescriptor.CARD_TABLE_START) {
            long now = System.nanoTime();
            // a published segment is never shorter than its header, so a short file is not one to wait for
            if (length > 0 || now - nextCheck > 0 || now - deadline > 0) {
                nextCheck = now + CHECK_INTERVAL_NANOS;
                String problem = NodeSegmentFiles.whyUnusable(file);
                if (problem != null) {
                    throw new NodeSegmentException(problem);
                }
                if (now - deadline > 0) {
                    throw new NodeSegmentException("node segment " + file + " was not created by the node root"
                            + " within " + seconds(timeout.toNanos()));
                }
            }
            idle.idle();
        }
        MappedByteBuffer mapped;
        try {
            mapped = IoUtil.mapExistingFile(file.toFile(), "node segment");
        } catch (Exception e) { // Agrona rethrows the IOException unchecked
            String problem = NodeSegmentFiles.whyUnusable(file);
            throw new NodeSegmentException(problem != null ? problem : "cannot map the node segment " + file + ": " + e,
                    e);
        }
        NodeSegment segment = new NodeSegment(file, null, mapped, timeout.toNanos());
        try {
            segment.awaitReady(deadline, nodeId, localSize, jobSize);
        } catch (RuntimeException e) {
            IoUtil.unmap(mapped);
            segment.closed = true;
            throw e;
        }
        segment.buffer.getAndAddInt(ATTACHED_OFFSET, 1);
        return segment;
    }

    private void awaitReady(long deadline, int nodeId, int localSize, int jobSize) {
        idle.reset();
        while (NodeSegmentDescriptor.layoutVersionVolatile(buffer) == 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new NodeSegmentException("node segment " + file + " did not become ready within "
                        + seconds(timeoutNanos));
            }
            idle.idle();
        }
        String problem = NodeSegmentDescriptor.problem(buffer, nodeId, localSize, jobSize);
        if (problem != null) {
            throw new NodeSegmentException("node segment " + file + " cannot be used: " + problem);
        }
    }

    /**
     * Waits until every rank of the node has called it (a sense-reversing barrier on the segment).
     *
     * @throws NodeSegmentException when not every local rank arrives within the timeout
     */
    public void barrier() {
        ensureOpen();
        int localSize = localSize();
        int sense = barrierSense ^ 1;
        barrierSense = sense;
        if (buffer.getAndAddInt(BARRIER_COUNT_OFFSET, 1) + 1 == localSize) {
            buffer.putInt(BARRIER_COUNT_OFFSET, 0); // published by the volatile store below
            buffer.putIntVolatile(BARRIER_SENSE_OFFSET, sense);
            return;
        }
        long deadline = System.nanoTime() + timeoutNanos;
        idle.reset();
        while (buffer.getIntVolatile(BARRIER_SENSE_OFFSET) != sense) {
            if (System.nanoTime() - deadline > 0) {
                throw new NodeSegmentException("node barrier on node " + nodeId() + " timed out after "
                        + seconds(timeoutNanos) + ": " + buffer.getIntVolatile(BARRIER_COUNT_OFFSET) + " of "
                        + localSize + " local ranks arrived (is a rank of this node dead or stuck?)");
            }
            idle.idle();
        }
    }

    /**
     * Writes {@code card} into {@code rank}'s slot: the bytes, then the length with an ordered store, so a reader
     * that sees the length sees the card.
     *
     * @throws IllegalArgumentException when the card is empty or longer than {@link #cardCapacity()}
     */
    public void putCard(int rank, byte[] card) {
        int slot = slotOffset(rank);
        if (card.length == 0 || card.length > cardCapacity()) {
            throw new IllegalArgumentException("a card slot holds 1 to " + cardCapacity() + " bytes, not "
                    + card.length);
        }
        buffer.putBytes(slot + CARD_DATA_OFFSET, card);
        buffer.putIntOrdered(slot + CARD_LENGTH_FIELD_OFFSET, card.length);
    }

    /** The card in {@code rank}'s slot, or null while the slot is empty. */
    public byte[] card(int rank) {
        int slot = slotOffset(rank);
        int length = buffer.getIntVolatile(slot + CARD_LENGTH_FIELD_OFFSET);
        if (length == 0) {
            return null;
        }
        if (length < 0 || length > cardCapacity()) {
            throw new NodeSegmentException("card slot " + rank + " of " + file + " holds a length of " + length);
        }
        byte[] card = new byte[length];
        buffer.getBytes(slot + CARD_DATA_OFFSET, card);
        return card;
    }

    /** The length of the card in {@code rank}'s slot, 0 while it is empty. */
    public int cardLength(int rank) {
        return buffer.getIntVolatile(slotOffset(rank) + CARD_LENGTH_FIELD_OFFSET);
    }

    /**
     * Raises the node's longest offered card length to at least {@code length} (atomic, for agreeing on a card
     * length among the local ranks); returns the longest so far.
     */
    public int offerCardLength(int length) {
        ensureOpen();
        while (true) {
            int longest = buffer.getIntVolatile(LONGEST_CARD_OFFSET);
            if (length <= longest || buffer.compareAndSetInt(LONGEST_CARD_OFFSET, longest, length)) {
                return Math.max(length, longest);
            }
        }
    }

    /** The longest card length offered on this node so far. */
    public int longestCardOffered() {
        ensureOpen();
        return buffer.getIntVolatile(LONGEST_CARD_OFFSET);
    }

    /**
     * The whole card table, {@link #jobSize()} slots of {@link #cardSlotLength()} bytes, as a view on the shared
     * memory (for an allgather in place). Valid until {@link #close()}.
     */
    public ByteBuffer cardTable() {
        ensureOpen();
        int offset = NodeSegmentDescriptor.cardTableOffset(buffer);
        return mapped.duplicate().position(offset).limit(offset + jobSize() * cardSlotLength()).slice()
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /** The room of the node-local collectives ({@link CollectiveRoom}). Valid until {@link #close()}. */
    public ByteBuffer collectiveRegion() {
        ensureOpen();
        int offset = NodeSegmentDescriptor.collectiveOffset(buffer);
        return mapped.duplicate().position(offset).limit(NodeSegmentDescriptor.foldOffset(buffer)).slice()
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /** The room of the long reductions of two members ({@link FoldRoom}; empty on a node of one rank). */
    public ByteBuffer foldRegion() {
        ensureOpen();
        int offset = NodeSegmentDescriptor.foldOffset(buffer);
        return mapped.duplicate().position(offset).limit(NodeSegmentDescriptor.segmentLength(buffer)).slice()
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /** The room reserved for the shared-memory transport (possibly empty). Valid until {@link #close()}. */
    public UnsafeBuffer transportRegion() {
        ensureOpen();
        return new UnsafeBuffer(buffer, NodeSegmentDescriptor.transportOffset(buffer),
                NodeSegmentDescriptor.transportLength(buffer));
    }

    public Path file() {
        return file;
    }

    /** Whether this rank created the segment (it is its node root). */
    public boolean isCreator() {
        return creator;
    }

    public int nodeId() {
        ensureOpen();
        return NodeSegmentDescriptor.nodeId(buffer);
    }

    public int localSize() {
        ensureOpen();
        return NodeSegmentDescriptor.localSize(buffer);
    }

    public int jobSize() {
        ensureOpen();
        return NodeSegmentDescriptor.jobSize(buffer);
    }

    public int cardCapacity() {
        ensureOpen();
        return NodeSegmentDescriptor.cardCapacity(buffer);
    }

    public int cardSlotLength() {
        ensureOpen();
        return NodeSegmentDescriptor.cardSlotLength(buffer);
    }

    /**
     * Detaches this rank: unmaps the segment, and removes the file when this was the last rank attached. Call it
     * only after a node barrier that every local rank passed after opening, so no rank is still to attach.
     * Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        boolean last = buffer.getAndAddInt(ATTACHED_OFFSET, -1) == 1;
        IoUtil.unmap(mapped);
        if (last) {
            removeFile();
        }
        if (removeOnExit != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(removeOnExit);
            } catch (IllegalStateException e) {
                // the JVM is exiting and the hook runs anyway
            }
        }
    }

    /** Gives the filled file {@code part} its name {@code file}, failing if that name is taken, and drops {@code part}. */
    private static void publish(Path part, Path file) {
        try {
            try {
                Files.createLink(file, part);
            } catch (UnsupportedOperationException e) {
                Files.move(part, file); // no hard links here: a rename, which checks for the name first
            }
        } catch (FileAlreadyExistsException e) {
            remove(part);
            throw new NodeSegmentException("node segment " + file + " exists already: left by an earlier job with"
                    + " the same id? Remove it", e);
        } catch (IOException | RuntimeException e) {
            remove(part);
            throw new NodeSegmentException("cannot create the node segment " + file + ": " + e, e);
        }
        remove(part);
    }

    /** Removes the file now (the segment stays mapped by whoever has it mapped). */
    public void unlink() {
        removeFile();
    }

    private void removeFile() {
        remove(file);
    }

    private static void remove(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // mpjrun removes it when the job ends
        }
    }

    /** The creator's shutdown hook (a class, not a lambda: no lambda bootstrap on the init path). */
    private static final class RemoveOnExit extends Thread {
        private final Path file;
        private final Path part;

        RemoveOnExit(Path file, Path part) {
            super("mpj-remove-node-segment");
            this.file = file;
            this.part = part;
        }

        @Override
        public void run() {
            remove(part);
            remove(file);
        }
    }

    private int slotOffset(int rank) {
        ensureOpen();
        if (rank < 0 || rank >= jobSize()) {
            throw new IndexOutOfBoundsException("rank " + rank + " of a job of " + jobSize());
        }
        return NodeSegmentDescriptor.cardSlotOffset(buffer, rank);
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("node segment " + file + " is closed");
        }
    }

    /**
     * The file's length, 0 while it does not exist: {@link File#length()}, not {@code Files.size}, whose every miss
     * throws two exceptions, each with its stack trace, for every poll of a rank that waits for the root's file.
     * It answers 0 for any error too, so the wait asks {@link NodeSegmentFiles#whyUnusable} now and then, and at
     * its end, what stands in the way.
     */
    private static long fileLength(Path file) {
        return file.toFile().length();
    }

    /** As the progress engine: eight ranks on two cores must not burn them. */
    private static IdleStrategy newIdleStrategy() {
        return new BackoffIdleStrategy(16, 8, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(500));
    }

    private static String seconds(long nanos) {
        return nanos % 1_000_000_000L == 0 ? nanos / 1_000_000_000L + " s" : nanos / 1e9 + " s";
    }

    @Override
    public String toString() {
        return "NodeSegment[" + file + (creator ? ", creator" : "") + (closed ? ", closed" : "") + "]";
    }
}
