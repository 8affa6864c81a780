package dev.mpj.transport.tcp;

import dev.mpj.runtime.spi.FrameHeader;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;

import java.util.List;

/**
 * Splits the inbound byte stream into frames ({@link WireFormat}): emits each frame without its length
 * field as a retained slice of the received bytes. The length and the kind are checked as soon as they
 * have arrived, before waiting for the body, so a bogus length never causes an allocation; after the
 * first error every further byte is discarded.
 */
final class FrameDecoder extends ByteToMessageDecoder {
    private final int maxFrame;
    private boolean failed;

    FrameDecoder(int maxFrame) {
        this.maxFrame = maxFrame;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        int readable = in.readableBytes();
        if (readable < WireFormat.LENGTH_FIELD) {
            return;
        }
        int start = in.readerIndex();
        long length = in.getUnsignedIntLE(start);
        if (length > maxFrame) {
            throw fail(new TooLongFrameException("frame length " + length + " exceeds mpj.tcp.maxFrame " + maxFrame));
        }
        if (length < FrameHeader.LENGTH) {
            throw fail(new CorruptedFrameException("frame length " + length + " is shorter than a frame header ("
                    + FrameHeader.LENGTH + ")"));
        }
        if (readable <= WireFormat.LENGTH_FIELD) {
            return;
        }
        byte kind = in.getByte(start + WireFormat.LENGTH_FIELD + FrameHeader.KIND_OFFSET);
        if (!FrameHeader.isKnownKind(kind) && kind != WireFormat.BYE) {
            throw fail(new CorruptedFrameException("unknown frame kind " + kind));
        }
        if (readable < WireFormat.LENGTH_FIELD + length) {
            return;
        }
        in.skipBytes(WireFormat.LENGTH_FIELD);
        out.add(in.readRetainedSlice((int) length));
    }

    private RuntimeException fail(RuntimeException e) {
        failed = true;
        return e;
    }
}
