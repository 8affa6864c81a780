package dev.mpj.transport.tcp;

import dev.mpj.runtime.spi.FrameHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.ByteBuffer;

/**
 * The bytes on a TCP connection. The connecting side opens with a HELLO, the accepting side answers
 * HELLO_ACK (both in network byte order); then each side sends frames, each a 4-byte little-endian
 * length followed by that many bytes: a {@link FrameHeader} and its payload.
 * <pre>
 *  HELLO      magic "MPJT" (4) | version (2) | reserved (2) | claimed rank (4) | acceptor's credential (16)
 *  HELLO_ACK  magic "MPJT" (4) | version (2) | status (2) | acceptor's rank (4)
 * </pre>
 * The status is {@link #ACCEPTED}, or {@link #SUPERSEDED} when the acceptor keeps its own connection to the
 * connecting rank instead (both connected at once and the acceptor has the lower rank); both sides then close
 * the superseded connection without a frame on it.
 */
final class WireFormat {
    static final int MAGIC = 0x4D504A54;
    static final short VERSION = 1;
    static final int HELLO_LENGTH = 12 + TcpAddress.CREDENTIAL_LENGTH;
    static final int ACK_LENGTH = 12;

    static final short ACCEPTED = 0;
    static final short SUPERSEDED = 1;
    /** Where the status sits in HELLO_ACK. */
    static final int ACK_STATUS_OFFSET = 6;

    static final int LENGTH_FIELD = 4;
    /**
     * Kind of the transport's own frame that says the sender leaves in order; outside the engine's kinds,
     * so it can never be mistaken for one, and consumed by the transport.
     */
    static final byte BYE = (byte) 0x7F;

    private WireFormat() {
    }

    static ByteBuf hello(ByteBufAllocator alloc, int rank, byte[] acceptorCredential) {
        return alloc.buffer(HELLO_LENGTH)
                .writeInt(MAGIC).writeShort(VERSION).writeShort(0).writeInt(rank).writeBytes(acceptorCredential);
    }

    static ByteBuf helloAck(ByteBufAllocator alloc, int rank, short status) {
        return alloc.buffer(ACK_LENGTH).writeInt(MAGIC).writeShort(VERSION).writeShort(status).writeInt(rank);
    }

    /**
     * Copies {@code header} and {@code payload} (position to limit of each; positions are left unchanged)
     * into one length-prefixed frame.
     */
    static ByteBuf frame(ByteBufAllocator alloc, ByteBuffer header, ByteBuffer payload) {
        int length = header.remaining() + payload.remaining();
        ByteBuf frame = alloc.directBuffer(LENGTH_FIELD + length);
        frame.writeIntLE(length);
        int headerPosition = header.position();
        int payloadPosition = payload.position();
        frame.writeBytes(header).writeBytes(payload);
        header.position(headerPosition);
        payload.position(payloadPosition);
        return frame;
    }

    static ByteBuf bye(ByteBufAllocator alloc, int rank) {
        ByteBuf frame = alloc.buffer(LENGTH_FIELD + FrameHeader.LENGTH);
        frame.writeIntLE(FrameHeader.LENGTH).writeZero(FrameHeader.LENGTH);
        frame.setByte(LENGTH_FIELD + FrameHeader.KIND_OFFSET, BYE);
        frame.setIntLE(LENGTH_FIELD + FrameHeader.SOURCE_OFFSET, rank);
        return frame;
    }
}
