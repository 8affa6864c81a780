package dev.mpj.transport.shm;

import dev.mpj.runtime.spi.DirectSource;
import dev.mpj.runtime.spi.FrameHeader;
import dev.mpj.runtime.spi.FrameSink;
import dev.mpj.runtime.spi.NodeRoom;
import dev.mpj.runtime.spi.Transport;
import dev.mpj.runtime.spi.TransportContext;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Moves frames between the ranks of one node through Agrona ring buffers in the node segment's transport room
 * (laid out by {@link ShmLayout}): one {@link ManyToOneRingBuffer} per receiving rank, which every other local
 * rank writes into and its owner reads on the MPI thread ({@link #poll}), so nothing needs a thread of its own.
 *
 * <p><b>Why one many-to-one ring per receiver</b> rather than one one-to-one ring per pair: the receiver polls
 * one ring whatever the node size (a ring per pair costs it n − 1 polls per pass, mostly of empty rings); the
 * room is split n ways rather than n(n − 1) ways, so each ring is large enough to take a whole eager message
 * (16 MiB for 8 ranks gives 1 MiB rings, records up to 128 KiB) where pair rings would be 256 KiB; the price is
 * a CAS on the ring's tail per record, a few ns uncontended, against a ring path of about 110 ns of CPU for an
 * 8-byte frame (RingPathBenchmark). Order per sender-receiver pair holds because a sender's records are claimed
 * in its program order.
 *
 * <p><b>Frames larger than a record</b> ({@link RingBuffer#maxMsgLength()}, an eighth of the ring): a rendezvous
 * {@code DATA} frame is cut into {@code DATA} frames of its consecutive ranges, each delivered as it comes;
 * any other frame goes in pieces that the receiver puts together ({@link RecordType}).
 *
 * <p><b>Large rendezvous data</b> ({@code DATA} frames longer than a record, with payloads of at least
 * {@value #BULK_MIN} bytes) goes through the receiver's {@link BulkChannel} when the room has one and no other
 * sender holds it: consecutive ranges written there, each announced by a small record in the ring. The reader
 * copies them out and zeroes nothing, where a ring's reader zeroes every byte it read, a third pass over the data
 * on the receiver, the slower side of a stream.
 *
 * <p><b>Back-pressure</b>: a full ring makes {@link #send} wait, and while it waits it keeps reading this rank's
 * own ring into the sink, so two ranks streaming into each other's full rings both progress (and so does any
 * cycle of them); the wait idles as the engine's does ({@code mpj.waitPolicy}).
 *
 * <p><b>A dead peer</b>: every rank writes its pid into its liveness slot when it starts and marks the slot
 * closed when it leaves in order; a waiting rank looks at its peers' processes every
 * {@value PeerWatch#INTERVAL_NANOS} ns and reports one that died to the sink ({@link PeerWatch}). Frames to a
 * peer that is gone are dropped.
 *
 * <p>{@link #send} and {@link #poll} are called by the thread that drives MPI, one at a time. The sink must not
 * send from {@code onFrame} (the engine only queues there).
 */
public final class ShmTransport implements Transport {
    public static final String NAME = "shm";
    private static final int CHECK_EVERY_POLLS = 256;
    /** Runs up to this long go into the ring word by word ({@link #put}). */
    private static final int SHORT_PUT = 64;
    /** A {@code byte[]}'s bytes read as words, in the order the ring's words are written in. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /**
     * DATA payloads from this long that a ring would cut into records go through the receiver's bulk channel when
     * it is free: shorter ones fit a small ring's records.
     */
    static final int BULK_MIN = 16 * 1024;
    /** The longest payload a bulk frame carries, so the receiver copies out while the sender still writes. */
    static final int BULK_PIECE = 256 * 1024;

    private int rank;
    private int node;
    private FrameSink sink;
    private ShmLayout layout;
    private LocalRanks locals;
    private int self;
    private RingBuffer[] rings;
    /** Each local rank's bulk channel, or null when the room has none. */
    private BulkChannel[] bulk;
    private long nextLook;
    private InboundReader reader;
    private PeerWatch watch;
    private IdleStrategy idle;
    private final ByteBuffer lengthPrefix = ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private int pollsUntilCheck = CHECK_EVERY_POLLS;
    private boolean closed;

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Lays out the node segment's transport room and marks this rank running. The address it returns is the
     * node id (4 bytes, little-endian): local peers need no address, {@link #addPeer} only checks it.
     *
     * @throws IOException when the context has no node map or node segment, or the room is too small
     */
    @Override
    public byte[] start(TransportContext context) throws IOException {
        NodeRoom room = context.nodeRoom();
        if (room == null) {
            throw new IOException("the shared-memory transport needs the node segment");
        }
        rank = context.rank();
        sink = context.sink();
        node = room.nodeId();
        if (room.jobSize() - 1 > RecordType.MAX_RANK) {
            throw new IOException("a job of " + room.jobSize() + " ranks is too large for the shared-memory transport");
        }
        locals = new LocalRanks(room.nodeRanks(), room.jobSize());
        self = locals.localRankOf(rank);
        try {
            layout = ShmLayout.of(room.region(), locals.size());
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
        rings = new RingBuffer[locals.size()];
        bulk = new BulkChannel[locals.size()];
        for (int local = 0; local < rings.length; local++) {
            rings[local] = layout.ring(local);
            bulk[local] = layout.bulk(local);
        }
        reader = new InboundReader(rings[self], bulk[self], sink, locals);
        idle = context.idling().pollingIdleStrategy();
        long pid = room.processId();
        watch = new PeerWatch(layout, locals.worldRanks(), self, pid, sink);
        layout.attach(self, pid);
        return ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(0, node).array();
    }

    /**
     * Checks that {@code rank} is on this node ({@code address} is its {@link #start} address, or empty when
     * the caller knows from the node map). Sending needs no call to it.
     *
     * @throws IllegalArgumentException when the peer is on another node
     */
    @Override
    public void addPeer(int rank, byte[] address) {
        int local = locals.localRankOf(rank);
        boolean sameNode = address.length == 0 || address.length == Integer.BYTES
                && ByteBuffer.wrap(address).order(ByteOrder.LITTLE_ENDIAN).getInt(0) == node;
        if (local < 0 || !sameNode) {
            throw new IllegalArgumentException("rank " + rank + " is not on this node: shared memory cannot reach it");
        }
    }

    /** The largest record a ring takes: frames longer than this go in pieces. */
    public int maxRecordLength() {
        return rings[self].maxMsgLength();
    }

    /** The capacity of each ring of this node. */
    public int ringCapacity() {
        return layout.ringCapacity();
    }

    @Override
    public void send(int peer, ByteBuffer header, ByteBuffer payload) {
        int local = locals.localRankOf(peer);
        if (local < 0 || local == self) {
            throw new IllegalArgumentException("rank " + peer + " is not another rank of this node");
        }
        if (header.remaining() != FrameHeader.LENGTH) {
            throw new IllegalArgumentException("a frame header is " + FrameHeader.LENGTH + " bytes, not "
                    + header.remaining());
        }
        RingBuffer ring = rings[local];
        int max = ring.maxMsgLength();
        int length = FrameHeader.LENGTH + payload.remaining();
        BulkChannel channel = bulk[local];
        if (FrameHeader.kind(header) == FrameHeader.DATA && length > max && channel != null
                && payload.remaining() >= BULK_MIN && channel.tryTake(rank)) {
            try {
                writeBulk(ring, local, channel, header, payload);
            } finally {
                channel.giveUp();
            }
        } else if (length <= max) {
            writeWhole(ring, local, header, payload, payload.position(), payload.remaining(), 0);
        } else if (FrameHeader.kind(header) == FrameHeader.DATA) {
            // Each range is a DATA frame of its own: delivered as it comes, nothing to put together.
            int step = max - FrameHeader.LENGTH;
            for (int off = 0; off < payload.remaining(); off += step) {
                int n = Math.min(step, payload.remaining() - off);
                if (!writeWhole(ring, local, header, payload, payload.position() + off, n, off)) {
                    return;
                }
            }
        } else {
            writePieces(ring, local, header, payload, length, max);
        }
    }

    /**
     * A frame that fits one record, its payload copied from the array word by word; longer ones take
     * {@link #send(int, ByteBuffer, ByteBuffer)}'s path.
     */
    @Override
    public void send(int peer, ByteBuffer header, byte[] payload, int offset, int length) {
        int local = locals.localRankOf(peer);
        if (length > SHORT_PUT || local < 0 || local == self || header.remaining() != FrameHeader.LENGTH
                || FrameHeader.LENGTH + length > rings[local].maxMsgLength()) {
            send(peer, header, ByteBuffer.wrap(payload, offset, length).slice());
            return;
        }
        RingBuffer ring = rings[local];
        int index = claim(ring, local, RecordType.WHOLE, FrameHeader.LENGTH + length);
        if (index < 0) {
            return;
        }
        AtomicBuffer b = ring.buffer();
        put(b, index, header, header.position(), FrameHeader.LENGTH);
        put(b, index + FrameHeader.LENGTH, payload, offset, length);
        ring.commit(index);
    }

    /**
     * The DATA frame as consecutive ranges written into {@code channel}, each announced in the ring once written;
     * returns when all are announced, or when the peer is gone (the rest dropped).
     */
    private void writeBulk(RingBuffer ring, int local, BulkChannel channel, ByteBuffer header, ByteBuffer payload) {
        int step = pieceLength(channel);
        AtomicBuffer b = channel.buffer();
        for (int off = 0; off < payload.remaining(); off += step) {
            int n = Math.min(step, payload.remaining() - off);
            int length = FrameHeader.LENGTH + n;
            long at = channel.placeOf(length);
            if (!channel.hasRoom(at, length)) {
                beginWait();
                do {
                    if (!waitTurn(local)) {
                        return;
                    }
                } while (!channel.hasRoom(at, length));
            }
            putFrame(b, channel.indexOf(at), header, payload, payload.position() + off, n, off);
            channel.written(at + length);
            int record = claim(ring, local, RecordType.BULK, BulkChannel.NOTICE_LENGTH);
            if (record < 0) {
                return;
            }
            ring.buffer().putLong(record, at);
            ring.buffer().putInt(record + Long.BYTES, length);
            ring.commit(record);
        }
    }

    /**
     * The payload bytes of each bulk frame but a DATA frame's last: {@link #BULK_PIECE}, whole, so a frame of a power
     * of two comes in equal pieces with no short one at its end; or less in a channel too small for four of them.
     */
    static int pieceLength(BulkChannel channel) {
        return Math.min(BULK_PIECE, channel.capacity() / 4 - FrameHeader.LENGTH - BulkChannel.PAYLOAD_ALIGNMENT);
    }

    /** One record: the header (its arg advanced by {@code argDelta}) then {@code n} payload bytes from {@code from}. */
    private boolean writeWhole(RingBuffer ring, int local, ByteBuffer header, ByteBuffer payload, int from, int n,
                               long argDelta) {
        int index = claim(ring, local, RecordType.WHOLE, FrameHeader.LENGTH + n);
        if (index < 0) {
            return false;
        }
        putFrame(ring.buffer(), index, header, payload, from, n, argDelta);
        ring.commit(index);
        return true;
    }

    /**
     * A frame at {@code index} of {@code b}: the header, its arg advanced by {@code argDelta} (the offset of a range
     * of the payload), then {@code n} payload bytes from {@code from}.
     */
    private static void putFrame(AtomicBuffer b, int index, ByteBuffer header, ByteBuffer payload, int from, int n,
                                 long argDelta) {
        put(b, index, header, header.position(), FrameHeader.LENGTH);
        if (argDelta != 0) {
            b.putLong(index + FrameHeader.ARG_OFFSET, FrameHeader.arg(header) + argDelta);
        }
        put(b, index + FrameHeader.LENGTH, payload, from, n);
    }

    /**
     * Copies {@code n} bytes of {@code src} from index {@code from} into the ring at {@code index}; runs up to
     * {@link #SHORT_PUT} bytes word by word, as the bulk copy's checks cost more than copying a few words.
     */
    private static void put(AtomicBuffer b, int index, ByteBuffer src, int from, int n) {
        if (n > SHORT_PUT) {
            b.putBytes(index, src, from, n);
            return;
        }
        ByteOrder order = src.order();
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            b.putLong(index + i, src.getLong(from + i), order);
        }
        for (; i < n; i++) {
            b.putByte(index + i, src.get(from + i));
        }
    }

    /** {@link #put(AtomicBuffer, int, ByteBuffer, int, int)} from an array. */
    private static void put(AtomicBuffer b, int index, byte[] src, int from, int n) {
        if (n > SHORT_PUT) {
            b.putBytes(index, src, from, n);
            return;
        }
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            b.putLong(index + i, (long) LONGS.get(src, from + i), ByteOrder.LITTLE_ENDIAN);
        }
        for (; i < n; i++) {
            b.putByte(index + i, src[from + i]);
        }
    }

    /** The frame in records of at most {@code max} bytes: FIRST (total length, then bytes), MIDDLE…, LAST. */
    private void writePieces(RingBuffer ring, int local, ByteBuffer header, ByteBuffer payload, int length, int max) {
        lengthPrefix.putInt(0, length);
        ByteBuffer prefix = lengthPrefix.duplicate().clear();
        int done = 0;
        while (done < length) {
            int room = done == 0 ? max - Integer.BYTES : max;
            int n = Math.min(room, length - done);
            int piece = done == 0 ? RecordType.FIRST : done + n == length ? RecordType.LAST : RecordType.MIDDLE;
            int index = claim(ring, local, piece, (done == 0 ? Integer.BYTES : 0) + n);
            if (index < 0) {
                return;
            }
            AtomicBuffer b = ring.buffer();
            int at = index;
            if (done == 0) {
                b.putBytes(at, prefix, 0, Integer.BYTES);
                at += Integer.BYTES;
            }
            // the bytes [done, done + n) of header ++ payload
            int fromHeader = Math.max(0, Math.min(FrameHeader.LENGTH - done, n));
            if (fromHeader > 0) {
                b.putBytes(at, header, header.position() + done, fromHeader);
            }
            int payloadFrom = done + fromHeader - FrameHeader.LENGTH;
            b.putBytes(at + fromHeader, payload, payload.position() + payloadFrom, n - fromHeader);
            ring.commit(index);
            done += n;
        }
    }

    /**
     * Claims {@code length} bytes in {@code local}'s ring, waiting while it is full and reading this rank's own
     * ring meanwhile; returns -1 (and drops the frame) when that peer is gone.
     */
    private int claim(RingBuffer ring, int local, int piece, int length) {
        int type = RecordType.of(rank, piece);
        int index = ring.tryClaim(type, length);
        if (index >= 0) {
            return index;
        }
        beginWait();
        while ((index = ring.tryClaim(type, length)) < 0) {
            if (index != RingBuffer.INSUFFICIENT_CAPACITY) {
                throw new IllegalStateException("ring of rank " + locals.worldRank(local) + ": claim " + index);
            }
            if (!waitTurn(local)) {
                return -1;
            }
        }
        return index;
    }

    private void beginWait() {
        idle.reset();
        nextLook = System.nanoTime() + PeerWatch.INTERVAL_NANOS;
    }

    /**
     * One turn of a wait for room at {@code local}: reads this rank's own ring meanwhile, so ranks that send to
     * each other all progress, then idles; false when that peer is gone.
     */
    private boolean waitTurn(int local) {
        int work = reader.read();
        long now = System.nanoTime();
        if (watch.isLost(local) || now - nextLook >= 0 && watch.isGone(local)) {
            return false;
        }
        if (now - nextLook >= 0) {
            nextLook = now + PeerWatch.INTERVAL_NANOS;
        }
        idle.idle(work);
        return true;
    }

    @Override
    public int poll() {
        int n = reader.read();
        if (--pollsUntilCheck <= 0) {
            pollsUntilCheck = CHECK_EVERY_POLLS;
            watch.checkIfDue();
        }
        return n;
    }

    @Override
    public DirectSource directSource() {
        return reader;
    }

    @Override
    public boolean needsPolling() {
        return true;
    }

    @Override
    public boolean sharesMemory() {
        return true;
    }

    /** Marks this rank closed in its liveness slot, so peers do not take its exit for a crash. */
    @Override
    public void close() {
        if (!closed && layout != null) {
            closed = true;
            layout.markClosed(self);
        }
    }
}
