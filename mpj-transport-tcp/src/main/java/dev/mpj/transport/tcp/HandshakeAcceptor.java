package dev.mpj.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

import io.netty.channel.ChannelFutureListener;

/**
 * Accepting side of the handshake: the HELLO must carry this listener's credential and a rank of the job
 * other than this one; then the transport {@linkplain TcpTransport#admit admits} it (HELLO_ACK, and the connection
 * carries the pair from now on) or keeps its own simultaneous connection instead (HELLO_ACK saying SUPERSEDED,
 * then close).
 */
final class HandshakeAcceptor extends HandshakeHandler {
    private final int rank;
    private final int size;
    private final TcpAddress self;
    private final TcpTransport transport;
    private int claimedRank;

    HandshakeAcceptor(Connection connection, int rank, int size, TcpAddress self, long timeoutMillis,
                      TcpTransport transport) {
        super(connection, WireFormat.HELLO_LENGTH, timeoutMillis);
        this.rank = rank;
        this.size = size;
        this.self = self;
        this.transport = transport;
    }

    @Override
    protected String check(ChannelHandlerContext ctx, ByteBuf hello) {
        String problem = checkPreamble(hello);
        if (problem != null) {
            return problem;
        }
        claimedRank = hello.readInt();
        byte[] credential = new byte[TcpAddress.CREDENTIAL_LENGTH];
        hello.readBytes(credential);
        if (!self.credentialMatches(credential)) {
            return "wrong credential";
        }
        if (claimedRank < 0 || claimedRank >= size) {
            return "claimed rank " + claimedRank + " is not in [0, " + size + ")";
        }
        if (claimedRank == rank) {
            return "claimed rank " + claimedRank + " is this rank";
        }
        return null;
    }

    @Override
    protected void completed(ChannelHandlerContext ctx) {
        if (!transport.admit(connection, claimedRank)) {
            connection.supersede();
            ctx.writeAndFlush(WireFormat.helloAck(ctx.alloc(), rank, WireFormat.SUPERSEDED))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        // the ACK is in the outbound buffer before any frame this connection may carry
        ctx.writeAndFlush(WireFormat.helloAck(ctx.alloc(), rank, WireFormat.ACCEPTED));
        connection.handshakeDone(claimedRank);
        transport.connectionReady(connection, false);
    }

    @Override
    protected String describe(ChannelHandlerContext ctx) {
        return "rejected connection from " + ctx.channel().remoteAddress();
    }
}
