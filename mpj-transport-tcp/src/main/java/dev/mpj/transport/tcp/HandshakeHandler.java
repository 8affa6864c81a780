package dev.mpj.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.ScheduledFuture;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * First handler of a connection: waits for the one fixed-length handshake message, checks it, and removes
 * itself, handing any bytes that followed to the frame decoder. A bad or missing message (within the
 * timeout) closes the connection and nothing read from it is ever passed on.
 */
abstract class HandshakeHandler extends ByteToMessageDecoder {
    protected final Connection connection;
    private final int messageLength;
    private final long timeoutMillis;
    private ScheduledFuture<?> timeout;
    private boolean failed;

    HandshakeHandler(Connection connection, int messageLength, long timeoutMillis) {
        this.connection = connection;
        this.messageLength = messageLength;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        timeout = ctx.executor().schedule(new Timeout(ctx), timeoutMillis, TimeUnit.MILLISECONDS);
        super.channelActive(ctx);
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < messageLength) {
            return;
        }
        String problem = check(ctx, in.readSlice(messageLength));
        if (problem != null) {
            in.skipBytes(in.readableBytes());
            fail(ctx, problem);
            return;
        }
        timeout.cancel(false);
        completed(ctx);
        ctx.pipeline().remove(this);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (timeout != null) {
            timeout.cancel(false);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (timeout != null) {
            timeout.cancel(false);
        }
        super.channelInactive(ctx);
    }

    /** Checks the handshake message; returns what is wrong with it, or null if it is good. */
    protected abstract String check(ChannelHandlerContext ctx, ByteBuf message);

    /** The handshake succeeded; called just before this handler leaves the pipeline. */
    protected abstract void completed(ChannelHandlerContext ctx);

    /** How the log names this connection, e.g. "rejected connection from /127.0.0.1:5555". */
    protected abstract String describe(ChannelHandlerContext ctx);

    private void fail(ChannelHandlerContext ctx, String problem) {
        if (failed) {
            return;
        }
        failed = true;
        TcpLog.warn(describe(ctx) + ": " + problem);
        connection.recordFailure(new IOException("handshake failed: " + problem));
        ctx.close();
    }

    /** What is wrong with the magic and version at the start of {@code message}, or null; consumes them. */
    static String checkPreamble(ByteBuf message) {
        int magic = message.readInt();
        short version = message.readShort();
        message.skipBytes(2);
        if (magic != WireFormat.MAGIC) {
            return "not an mpj connection (magic 0x" + Integer.toHexString(magic) + ")";
        }
        if (version != WireFormat.VERSION) {
            return "unsupported protocol version " + version + " (this is version " + WireFormat.VERSION + ")";
        }
        return null;
    }

    /** A class rather than a lambda, which a cold JVM would link at its first connection. */
    private final class Timeout implements Runnable {
        private final ChannelHandlerContext ctx;

        Timeout(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void run() {
            fail(ctx, "no handshake within " + timeoutMillis + " ms");
        }
    }
}
