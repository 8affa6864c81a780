package dev.mpj.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/**
 * Connecting side of the handshake: sends HELLO with this rank and the acceptor's credential as soon as the
 * connection is open, and lets queued frames flow once the acceptor's HELLO_ACK names the expected rank.
 */
final class HandshakeConnector extends HandshakeHandler {
    private final int rank;
    private final byte[] acceptorCredential;
    private final TcpTransport transport;
    private short status;

    HandshakeConnector(Connection connection, int rank, byte[] acceptorCredential, long timeoutMillis,
                       TcpTransport transport) {
        super(connection, WireFormat.ACK_LENGTH, timeoutMillis);
        this.transport = transport;
        this.rank = rank;
        this.acceptorCredential = acceptorCredential;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ctx.writeAndFlush(WireFormat.hello(ctx.alloc(), rank, acceptorCredential));
        super.channelActive(ctx);
    }

    @Override
    protected String check(ChannelHandlerContext ctx, ByteBuf ack) {
        status = ack.getShort(ack.readerIndex() + WireFormat.ACK_STATUS_OFFSET);
        if (status != WireFormat.ACCEPTED && status != WireFormat.SUPERSEDED) {
            return "unknown handshake status " + status;
        }
        String problem = checkPreamble(ack);
        if (problem != null) {
            return problem;
        }
        int acceptorRank = ack.readInt();
        if (acceptorRank != connection.peer()) {
            return "answered as rank " + acceptorRank;
        }
        return null;
    }

    @Override
    protected void completed(ChannelHandlerContext ctx) {
        if (status == WireFormat.SUPERSEDED) {
            transport.outboundSuperseded(connection); // the peer's own connection to us carries the pair
            ctx.close();
            return;
        }
        connection.handshakeDone(connection.peer());
        transport.connectionReady(connection, true);
    }

    @Override
    protected String describe(ChannelHandlerContext ctx) {
        return "closing connection to rank " + connection.peer() + " (" + ctx.channel().remoteAddress() + ")";
    }
}
