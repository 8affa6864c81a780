package dev.mpj.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/** Last handler of every connection's pipeline: hands decoded frames and the connection's end to the transport. */
final class FrameHandler extends ChannelInboundHandlerAdapter {
    private final TcpTransport transport;
    private final Connection connection;

    FrameHandler(TcpTransport transport, Connection connection) {
        this.transport = transport;
        this.connection = connection;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        transport.frameReceived(connection, (ByteBuf) msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        transport.connectionClosed(connection);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        connection.recordFailure(cause);
        if (!transport.isClosed()) {
            TcpLog.warn("closing connection with " + connection + ": " + TcpLog.describe(cause));
        }
        ctx.close();
    }
}
