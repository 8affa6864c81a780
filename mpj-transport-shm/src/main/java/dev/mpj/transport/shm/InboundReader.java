package dev.mpj.transport.shm;

import dev.mpj.runtime.spi.DirectReceive;
import dev.mpj.runtime.spi.DirectSource;
import dev.mpj.runtime.spi.FrameHeader;
import dev.mpj.runtime.spi.FrameSink;
import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads this rank's ring: offers each frame to the sink in place, else copies it out (so its room is free for
 * the senders at once, while the engine handles the frame later), puts frames
 * that came in pieces back together (one partial frame per sender: a sender's records are in order, other
 * senders' records may come between them), and hands whole frames to the sink.
 *
 * <p>It reads the records of Agrona's many-to-one ring itself rather than through {@code controlledRead}, which
 * gives the room of what it read back to the senders (zeroed and the head moved) at the end of every read. Here
 * that happens after every {@value #COMMIT_BYTES} bytes (or a quarter of a smaller ring) and when a read reaches
 * the end of what was written. So a sender streaming a large message fills the ring behind the reader while the
 * reader still copies out of it; a receiver that takes one message per read (the sink stops the reading, {@link
 * FrameSink#keepReading}) does not move the head, which the senders of a full ring watch, once per message; and a
 * ping-pong whose receive stops the reading moves it while it waits for the reply, not between a message and the
 * answer. A read that stops there keeps up to a quarter of the ring, so the zeroing of a message as long as
 * {@value #COMMIT_BYTES} bytes is not done between its landing and the return of the receive that took it, but in
 * the next wait. Room is never held while the reader waits: a wait polls, and a poll that finds nothing gives back
 * what was read.
 */
final class InboundReader implements DirectSource {
    /** Records read per poll at most, so one busy sender cannot hold the MPI thread for long. */
    private static final int READ_LIMIT = 256;
    /** Bytes read after which their room goes back to the senders within one read. */
    static final int COMMIT_BYTES = 64 * 1024;

    private final AtomicBuffer buffer;
    private final int mask;
    private final int headPositionIndex;
    private final FrameSink sink;
    private final FramePool pool;
    /** Local rank of each world rank that may send here; -1 for the others. */
    private final LocalRanks locals;
    private final ByteBuffer[] partial;
    /**
     * The ring's memory as a ByteBuffer, for frames the sink reads in place: one view, moved over each frame in
     * turn (the sink reads it only during the call), so reading a frame allocates nothing.
     */
    private final ByteBuffer inPlace;
    /** The ring's memory as a second view that never moves, read by absolute index ({@link #takeDirect}). */
    private final ByteBuffer memory;
    private final int inPlaceAdjustment;
    /** This rank's bulk channel, or null. */
    private final BulkChannel bulk;
    private boolean reading;
    private final int commitBytes;
    /** Bytes a read that stops at a taken frame may leave held: its room goes back in a later read. */
    private final int holdBytes;
    /** The position of the next record to read; the head, which the senders see, may be behind it. */
    private long position;
    /** The head as last given back to the senders: the room from here to {@code position} is still held. */
    private long committed;

    InboundReader(RingBuffer ring, BulkChannel bulk, FrameSink sink, LocalRanks locals) {
        this.bulk = bulk;
        this.buffer = ring.buffer();
        this.mask = ring.capacity() - 1;
        this.headPositionIndex = ring.capacity() + RingBufferDescriptor.HEAD_POSITION_OFFSET;
        this.position = ring.consumerPosition();
        this.committed = position;
        this.inPlace = ring.buffer().byteBuffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.memory = ring.buffer().byteBuffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.inPlaceAdjustment = ring.buffer().wrapAdjustment();
        this.sink = sink;
        this.locals = locals;
        this.pool = new FramePool(ring.maxMsgLength(), 8);
        this.commitBytes = Math.min(COMMIT_BYTES, ring.capacity() / 4);
        this.holdBytes = ring.capacity() / 4;
        this.partial = new ByteBuffer[locals.size()];
    }

    /** Hands what has arrived to the sink; returns the records read. Does nothing when called from the sink. */
    int read() {
        if (reading) {
            return 0; // a sink that sends from onFrame, waiting for room: the outer read is still on the ring
        }
        reading = true;
        try {
            int records = 0;
            while (records < READ_LIMIT) {
                position += paddingAt((int) position & mask);
                int index = (int) position & mask;
                int length = buffer.getIntVolatile(RecordDescriptor.lengthOffset(index));
                if (length <= 0) {
                    commit(); // read up to what was written: nothing to wait for, give the room back
                    break;
                }
                int type = buffer.getInt(RecordDescriptor.typeOffset(index));
                position += BitUtil.align(length, RecordDescriptor.ALIGNMENT); // read, even if handling throws
                if (type == RingBuffer.PADDING_MSG_TYPE_ID) {
                    continue; // a padding finished between paddingAt's read and this one: rare, so this stays cold
                }
                records++;
                boolean stop = take(type, buffer, index + RecordDescriptor.HEADER_LENGTH,
                        length - RecordDescriptor.HEADER_LENGTH) && !sink.keepReading();
                if (position - committed >= (stop ? holdBytes : commitBytes)) {
                    commit();
                }
                if (stop) {
                    break;
                }
            }
            return records;
        } finally {
            reading = false;
        }
    }

    @Override
    public ByteBuffer memory() {
        return memory;
    }

    /**
     * The index in {@link #memory} of the next record's payload when it is a whole frame {@code receive} accepts,
     * read past: a blocking receive's message taken in one call from the engine, with none of a read's hand-offs to
     * the sink. The header's words are read from the ring itself and the payload is copied from the fixed view, so
     * no buffer moves over the frame. Any other record (a piece, a bulk notice, the padding at the ring's end, a
     * record the general read reports as malformed) and a frame not accepted stay for {@link #read}, so each take
     * reads the record's two header words once, where skipping the padding itself would read them twice. The room
     * read before goes back first, so the payload stays until the next call. Returns -1 when called from the sink.
     *
     * <p>The take that gives room back (every {@value #COMMIT_BYTES} bytes) leaves its record for {@link #read},
     * through the same test as an empty ring and a record other than a whole frame (the padding, at every wrap of
     * the ring): a stream of blocking receives then sees -1 within its first thousands
     * of messages, so the JIT compiles the engine's way on from -1 with the rest. A receiver woken into a full ring
     * otherwise meets an empty ring only once it has caught up with its sender, long after its path was compiled,
     * and a branch never taken before is a trap there that throws the compiled receive away.
     */
    @Override
    public int takeDirect(DirectReceive receive) {
        if (reading) {
            return -1;
        }
        int due = commitBytes - 1 - (int) (position - committed); // negative once the room read is due back
        if (due < 0) {
            commit();
        }
        int index = (int) position & mask;
        int length = buffer.getIntVolatile(RecordDescriptor.lengthOffset(index));
        int type = buffer.getInt(RecordDescriptor.typeOffset(index));
        // piece is 0 for a whole frame only; Agrona's padding (type -1) and the pieces of longer frames are not
        if (((length - 1) | due | -RecordType.piece(type)) < 0) {
            return -1; // empty ring (length 0), room given back, or not a whole frame: one branch, seen taken early
        }
        int sender = RecordType.sender(type);
        int frame = index + RecordDescriptor.HEADER_LENGTH;
        int payloadLength = length - RecordDescriptor.HEADER_LENGTH - FrameHeader.LENGTH;
        if (!RecordType.isValid(type) || locals.localRankOf(sender) < 0 || payloadLength < 0
                || !receive.accepts(sender, buffer.getLong(frame + FrameHeader.KIND_OFFSET, ByteOrder.LITTLE_ENDIAN),
                buffer.getLong(frame + FrameHeader.SOURCE_OFFSET, ByteOrder.LITTLE_ENDIAN), payloadLength)) {
            return -1;
        }
        position += BitUtil.align(length, RecordDescriptor.ALIGNMENT);
        return inPlaceAdjustment + frame + FrameHeader.LENGTH;
    }

    /** The ring's in-place view moved over the {@code length} bytes at {@code index}. */
    private ByteBuffer frameInPlace(int index, int length) {
        int at = inPlaceAdjustment + index;
        // cleared first so that the new limit is never below the old position: Buffer.limit's test of that,
        // first true after a wrap, would send the compiled path that inlined it back to the interpreter
        return inPlace.clear().limit(at + length).position(at);
    }

    /**
     * The bytes of the padding record Agrona writes at {@code index} before the ring's end, else 0, found without a
     * branch: a test of the padding's type, never true in the profile of a receive path compiled before the ring
     * first wraps, made C2 throw that compiled path away at the wrap. Agrona writes the padding's length negated,
     * then its type, then its length with a release store, so a positive length read before the type is the
     * padding's own, and a negative one (still being written) counts as none.
     */
    private int paddingAt(int index) {
        int length = buffer.getIntVolatile(RecordDescriptor.lengthOffset(index));
        int fromPadding = buffer.getInt(RecordDescriptor.typeOffset(index)) - RingBuffer.PADDING_MSG_TYPE_ID;
        int isPadding = ((fromPadding | -fromPadding) >>> 31) ^ 1;
        int written = length & ~(length >> 31); // 0 while negative
        return BitUtil.align(written, RecordDescriptor.ALIGNMENT) & -isPadding;
    }

    /**
     * Gives the room of the records read since the last commit back to the senders: zeroed, as Agrona's senders
     * expect of free room (in two parts when it wraps past the ring's end), then the head moved with a release
     * store.
     */
    private void commit() {
        int bytes = (int) (position - committed);
        if (bytes > 0) {
            int headIndex = (int) committed & mask;
            int toEnd = Math.min(bytes, mask + 1 - headIndex);
            buffer.setMemory(headIndex, toEnd, (byte) 0);
            if (toEnd < bytes) {
                buffer.setMemory(0, bytes - toEnd, (byte) 0);
            }
            buffer.putLongRelease(headPositionIndex, position);
            committed = position;
        }
    }

    /** Hands one record to the sink; true when the sink took a whole frame in place. */
    private boolean take(int type, MutableDirectBuffer buffer, int index, int length) {
        int sender = RecordType.sender(type);
        int local = locals.localRankOf(sender);
        if (!RecordType.isValid(type) || local < 0) {
            throw new IllegalStateException("a record of type " + type + " in the shared-memory ring: not from"
                    + " a rank of this node (is the node segment corrupt?)");
        }
        switch (RecordType.piece(type)) {
            case RecordType.WHOLE -> {
                if (length < FrameHeader.LENGTH) {
                    malformed(sender, "a frame of " + length + " bytes");
                    return false;
                }
                return offer(sender, frameInPlace(index, length));
            }
            case RecordType.FIRST -> {
                int total = buffer.getInt(index);
                if (total < FrameHeader.LENGTH || total < length - Integer.BYTES || partial[local] != null) {
                    malformed(sender, "a first piece of a " + total + "-byte frame");
                    return false;
                }
                ByteBuffer frame = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
                frame.limit(length - Integer.BYTES);
                buffer.getBytes(index + Integer.BYTES, frame, 0, frame.limit());
                frame.position(frame.limit()).limit(total);
                partial[local] = frame;
            }
            case RecordType.MIDDLE, RecordType.LAST -> {
                ByteBuffer frame = partial[local];
                if (frame == null || frame.remaining() < length) {
                    malformed(sender, "a piece of " + length + " bytes with no frame to add it to");
                    return false;
                }
                buffer.getBytes(index, frame, frame.position(), length);
                frame.position(frame.position() + length);
                if (RecordType.piece(type) == RecordType.LAST) {
                    partial[local] = null;
                    if (frame.hasRemaining()) {
                        malformed(sender, "a frame " + frame.remaining() + " bytes short");
                        return false;
                    }
                    // offered in place like a whole frame, so the sink sees every frame of a sender in order
                    if (sink.onFrameInPlace(sender, frame.flip())) {
                        return true;
                    }
                    sink.onFrame(sender, frame, FramePool.NO_RELEASE);
                }
            }
            case RecordType.BULK -> {
                return takeBulk(sender, buffer, index, length);
            }
            default -> malformed(sender, "a record of piece " + RecordType.piece(type));
        }
        return false;
    }

    /** A frame in the bulk channel, offered in place, then its room given back; true when taken in place. */
    private boolean takeBulk(int sender, MutableDirectBuffer buffer, int index, int length) {
        long at = length == BulkChannel.NOTICE_LENGTH ? buffer.getLong(index) : -1;
        int frameLength = at < 0 ? -1 : buffer.getInt(index + Long.BYTES);
        if (bulk == null || frameLength < FrameHeader.LENGTH || !bulk.holds(at, frameLength)) {
            malformed(sender, "a notice of a bulk frame of " + frameLength + " bytes at " + at);
            return false;
        }
        boolean inPlace = offer(sender, bulk.frameAt(at, frameLength));
        bulk.consumed(at + frameLength);
        return inPlace;
    }

    /**
     * Offers {@code frame} (shared memory, from position to limit) to the sink in place; when refused, hands the
     * sink a pooled copy. True when taken in place.
     */
    private boolean offer(int sender, ByteBuffer frame) {
        int at = frame.position();
        int length = frame.remaining();
        if (sink.onFrameInPlace(sender, frame)) {
            return true;
        }
        FramePool.PooledFrame f = pool.take(length);
        f.buffer.put(0, frame, at, length);
        sink.onFrame(sender, f.buffer, f.release());
        return false;
    }

    private void malformed(int sender, String what) {
        sink.onPeerLost(sender, new IOException("rank " + sender + " wrote " + what + " into shared memory"));
    }
}
