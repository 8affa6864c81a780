package dev.mpj.runtime.spi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Layout of the engine's frame header, read and written in place (little-endian, absolute offsets from
 * the buffer's position):
 * <pre>
 *  0      1      2             4             8             12            16                        24                        32
 *  +------+------+-------------+-------------+-------------+-------------+-------------------------+-------------------------+
 *  | kind | flag |  reserved   |   context   |   source    |     tag     |  cookie (request id)    |  arg (length / offset)  |
 *  +------+------+-------------+-------------+-------------+-------------+-------------------------+-------------------------+
 * </pre>
 * The payload follows the header. Transports frame the whole (header + payload) with their own length.
 */
public final class FrameHeader {
    public static final int LENGTH = 32;

    public static final int KIND_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int CONTEXT_OFFSET = 4;
    public static final int SOURCE_OFFSET = 8;
    public static final int TAG_OFFSET = 12;
    public static final int COOKIE_OFFSET = 16;
    public static final int ARG_OFFSET = 24;

    /** Message data below the eager threshold; the whole message is the payload. */
    public static final byte EAGER = 1;
    /** As EAGER, and the receiver answers ACK (cookie) when it matches: synchronous send. */
    public static final byte EAGER_SYNC = 2;
    /** Match acknowledged: cookie = the sender's request id. */
    public static final byte ACK = 3;
    /** Rendezvous request to send: cookie = sender's request id, arg = total length; no payload. */
    public static final byte RTS = 4;
    /** Clear to send: cookie = sender's request id, arg = receiver's request id. */
    public static final byte CTS = 5;
    /** Rendezvous data chunk: cookie = receiver's request id, arg = offset in the message. */
    public static final byte DATA = 6;
    /** Eager credit returned: arg = bytes of the addressee's eager messages this rank's receives consumed. */
    public static final byte CREDIT = 7;
    /**
     * The source revoked the collectives of a communicator after an error inside one: context = its collective
     * context; the payload is the reason, UTF-8.
     */
    public static final byte REVOKE = 8;
    /**
     * Rendezvous request to send data that lies in the sender's shared region ({@code MPI.Alloc_mem}), to a rank of
     * its node: as RTS, with the payload the data's place (long: region id in the high half, offset in the low). The
     * receiver copies it out of the region and answers ACK (cookie), which completes the send.
     */
    public static final byte RTS_SHARED = 9;

    private FrameHeader() {
    }

    public static ByteBuffer allocate() {
        return ByteBuffer.allocate(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Writes a whole header at {@code buf}'s position (which must be little-endian) and leaves position unchanged. */
    public static void write(ByteBuffer buf, byte kind, int context, int source, int tag, long cookie, long arg) {
        int p = buf.position();
        buf.put(p + KIND_OFFSET, kind);
        buf.put(p + FLAGS_OFFSET, (byte) 0);
        buf.putShort(p + 2, (short) 0);
        buf.putInt(p + CONTEXT_OFFSET, context);
        buf.putInt(p + SOURCE_OFFSET, source);
        buf.putInt(p + TAG_OFFSET, tag);
        buf.putLong(p + COOKIE_OFFSET, cookie);
        buf.putLong(p + ARG_OFFSET, arg);
    }

    public static byte kind(ByteBuffer frame) {
        return frame.get(frame.position() + KIND_OFFSET);
    }

    public static int context(ByteBuffer frame) {
        return frame.getInt(frame.position() + CONTEXT_OFFSET);
    }

    public static int source(ByteBuffer frame) {
        return frame.getInt(frame.position() + SOURCE_OFFSET);
    }

    public static int tag(ByteBuffer frame) {
        return frame.getInt(frame.position() + TAG_OFFSET);
    }

    public static long cookie(ByteBuffer frame) {
        return frame.getLong(frame.position() + COOKIE_OFFSET);
    }

    public static long arg(ByteBuffer frame) {
        return frame.getLong(frame.position() + ARG_OFFSET);
    }

    /**
     * The header's first word ({@code kind} to {@code context}), read as one little-endian long so a frame's handler
     * reads its envelope in two accesses rather than one per field; {@link #kindOf} and {@link #contextOf} take it
     * apart.
     */
    public static long leadingWord(ByteBuffer frame) {
        return frame.getLong(frame.position() + KIND_OFFSET);
    }

    /** The header's {@code source} and {@code tag} as one little-endian long; {@link #tagOf} takes the tag. */
    public static long envelopeWord(ByteBuffer frame) {
        return frame.getLong(frame.position() + SOURCE_OFFSET);
    }

    public static byte kindOf(long leadingWord) {
        return (byte) leadingWord;
    }

    public static int contextOf(long leadingWord) {
        return (int) (leadingWord >>> 32);
    }

    public static int tagOf(long envelopeWord) {
        return (int) (envelopeWord >>> 32);
    }

    public static boolean isKnownKind(byte kind) {
        return kind >= EAGER && kind <= RTS_SHARED;
    }
}
