package dev.mpj.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

import java.util.function.Consumer;

/**
 * Accepting side of the handshake: the HELLO must carry this listener's credential and a rank of the job
 * other than this one; then HELLO_ACK is sent and the connection belongs to the claimed rank.
 */
final class HandshakeAcceptor extends HandshakeHandler {
    private final int rank;
    private final int size;
    private final TcpAddress self;
    private final Consumer<Connection> onAuthenticated;
    private int claimedRank;

    HandshakeAcceptor(Connection connection, int rank, int size, TcpAddress self, long timeoutMillis,
                      Consumer<Connection> onAuthenticated) {
        super(connection, WireFormat.HELLO_LENGTH, timeoutMillis);
        this.rank = rank;
        this.size = size;
        this.self = self;
        this.onAuthenticated = onAuthenticated;
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
        // the ACK is in the outbound buffer before any frame this connection may carry
        ctx.writeAndFlush(WireFormat.helloAck(ctx.alloc(), rank));
        connection.handshakeDone(claimedRank);
        onAuthenticated.accept(connection);
    }

    @Override
    protected String describe(ChannelHandlerContext ctx) {
        return "rejected connection from " + ctx.channel().remoteAddress();
    }
}
