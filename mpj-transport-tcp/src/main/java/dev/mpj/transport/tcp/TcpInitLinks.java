package dev.mpj.transport.tcp;

import dev.mpj.runtime.spi.ExchangeException;
import dev.mpj.runtime.spi.InitMessenger;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import static dev.mpj.transport.tcp.TcpTransport.closeQuietly;

/**
 * A node root's init links for the {@code roots} allgather: plain non-blocking JDK sockets, apart from the Netty
 * path, whose first connection in a cold JVM costs tens of milliseconds of CPU in every root (the allgather's
 * critical path) where these cost a connect and a few system calls.
 * <p>
 * A link carries one direction: a root writes on the link it opened to {@code dest} and reads on the one
 * {@code source} opened to it. A link opens with a hello (magic, the sender's rank, the receiver's credential
 * from its published address), so a stranger, or a rank that did not read the job's addresses, is refused;
 * then each message is a tag and a length (ints, network order) and the bytes. One thread (the MPI thread in
 * init) drives everything, idling with back-off while nothing moves, and gives up after the init timeout.
 */
final class TcpInitLinks implements InitMessenger {
    private static final int MAGIC = 0x4d504a49; // "MPJI"
    private static final int HELLO_LENGTH = 8 + TcpAddress.CREDENTIAL_LENGTH;
    private static final int HEADER_LENGTH = 8;

    private final ServerSocketChannel listener;
    private final int rank;
    private final int size;
    private final TcpAddress self;
    private final IntFunction<TcpAddress> addresses;
    private final IdleStrategy idle;
    private final long timeoutNanos;
    private final Map<Integer, SocketChannel> outbound = new HashMap<>();
    private final Map<Integer, SocketChannel> inbound = new HashMap<>();
    /** Accepted links whose hello has not fully arrived. */
    private final List<Greeting> greetings = new ArrayList<>();

    /**
     * @param listener  this rank's init-link listener (made non-blocking here), owned from now on
     * @param self      this rank's address, whose credential callers must present
     * @param addresses the address of a peer rank as given to the transport, or null when unknown
     */
    TcpInitLinks(ServerSocketChannel listener, int rank, int size, TcpAddress self,
                 IntFunction<TcpAddress> addresses, IdleStrategy idle, long timeoutNanos) throws IOException {
        listener.configureBlocking(false);
        this.listener = listener;
        this.rank = rank;
        this.size = size;
        this.self = self;
        this.addresses = addresses;
        this.idle = idle;
        this.timeoutNanos = timeoutNanos;
    }

    @Override
    public void sendReceive(ByteBuffer out, int dest, ByteBuffer in, int source, int tag) {
        long deadline = System.nanoTime() + timeoutNanos;
        try {
            SocketChannel to = outbound.get(dest);
            ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).putInt(tag).putInt(out.remaining()).flip();
            ByteBuffer[] writes;
            if (to == null) {
                TcpAddress address = addresses.apply(dest);
                to = connect(dest, address, deadline);
                writes = new ByteBuffer[]{hello(address), header, out};
            } else {
                writes = new ByteBuffer[]{header, out};
            }
            long unsent = 0;
            for (ByteBuffer b : writes) {
                unsent += b.remaining();
            }
            ByteBuffer received = ByteBuffer.allocate(HEADER_LENGTH);
            boolean headerChecked = false;
            idle.reset();
            while (true) {
                boolean moved = false;
                if (unsent > 0) {
                    long n = to.write(writes);
                    unsent -= n;
                    moved = n > 0;
                }
                SocketChannel from = inbound.get(source);
                if (from == null) {
                    moved |= acceptAndGreet();
                    from = inbound.get(source);
                }
                if (from != null && !headerChecked) {
                    moved |= read(from, received, source) > 0;
                    if (!received.hasRemaining()) {
                        checkHeader(received.flip(), tag, in.remaining(), source);
                        headerChecked = true;
                    }
                }
                if (headerChecked && in.hasRemaining()) {
                    moved |= read(from, in, source) > 0;
                }
                if (unsent == 0 && headerChecked && !in.hasRemaining()) {
                    return;
                }
                if (moved) {
                    idle.reset();
                } else if (System.nanoTime() - deadline > 0) {
                    throw new ExchangeException("init message " + tag + " from rank " + rank + " to rank " + dest
                            + " and from rank " + source + " did not complete within " + timeout()
                            + " (is a node root dead or stuck?)");
                } else {
                    idle.idle();
                }
            }
        } catch (IOException e) {
            throw new ExchangeException("init link of rank " + rank + " (to rank " + dest + ", from rank " + source
                    + ") failed: " + TcpLog.describe(e), e);
        }
    }

    private SocketChannel connect(int dest, TcpAddress address, long deadline) throws IOException {
        InetSocketAddress target = address == null ? null : address.initLinkAddress();
        if (target == null) {
            throw new ExchangeException("rank " + dest + " has no init-link listener in its address");
        }
        SocketChannel channel = SocketChannel.open();
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            idle.reset();
            if (!channel.connect(target)) {
                while (!channel.finishConnect()) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new ExchangeException("cannot connect the init link to rank " + dest + " at "
                                + target + " within " + timeout());
                    }
                    idle.idle();
                }
            }
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        outbound.put(dest, channel);
        return channel;
    }

    /** Opens a link to {@code receiver}: proves this rank read the receiver's address from the job. */
    private ByteBuffer hello(TcpAddress receiver) {
        return ByteBuffer.allocate(HELLO_LENGTH).putInt(MAGIC).putInt(rank).put(receiver.credential()).flip();
    }

    private String timeout() {
        return timeoutNanos / 1_000_000_000L + " s";
    }

    /** Accepts what is waiting and reads the hellos that have come; true when anything moved. */
    private boolean acceptAndGreet() throws IOException {
        boolean moved = false;
        SocketChannel accepted;
        while ((accepted = listener.accept()) != null) {
            accepted.configureBlocking(false);
            greetings.add(new Greeting(accepted));
            moved = true;
        }
        for (Iterator<Greeting> it = greetings.iterator(); it.hasNext(); ) {
            Greeting g = it.next();
            int n;
            try {
                n = g.channel.read(g.hello);
            } catch (IOException e) {
                n = -1;
            }
            moved |= n != 0;
            if (n < 0) {
                it.remove();
                closeQuietly(g.channel);
            } else if (!g.hello.hasRemaining()) {
                it.remove();
                admit(g.channel, g.hello.flip());
            }
        }
        return moved;
    }

    /** Keeps a greeted link when its hello is right; refuses it otherwise. */
    private void admit(SocketChannel channel, ByteBuffer hello) {
        int magic = hello.getInt();
        int from = hello.getInt();
        byte[] credential = new byte[TcpAddress.CREDENTIAL_LENGTH];
        hello.get(credential);
        String refusal = magic != MAGIC ? "not an init link"
                : from < 0 || from >= size || from == rank ? "from no other rank of the job (" + from + ")"
                : !self.credentialMatches(credential) ? "with a wrong credential (rank " + from + ")"
                : inbound.containsKey(from) ? "a second one from rank " + from
                : null;
        if (refusal != null) {
            TcpLog.warn("rank " + rank + " refused an init link " + refusal);
            closeQuietly(channel);
            return;
        }
        inbound.put(from, channel);
    }

    private static int read(SocketChannel channel, ByteBuffer into, int source) throws IOException {
        int n = channel.read(into);
        if (n < 0) {
            throw new ExchangeException("the init link from rank " + source + " closed in the middle of a message");
        }
        return n;
    }

    private static void checkHeader(ByteBuffer header, int tag, int expected, int source) {
        int gotTag = header.getInt();
        int length = header.getInt();
        if (gotTag != tag || length != expected) {
            throw new ExchangeException("init message from rank " + source + " has tag " + gotTag + " and "
                    + length + " bytes, expected tag " + tag + " and " + expected + " bytes");
        }
    }

    @Override
    public void close() {
        closeQuietly(listener);
        for (SocketChannel channel : outbound.values()) {
            closeQuietly(channel);
        }
        for (SocketChannel channel : inbound.values()) {
            closeQuietly(channel);
        }
        for (Greeting g : greetings) {
            closeQuietly(g.channel);
        }
        outbound.clear();
        inbound.clear();
        greetings.clear();
    }

    private static final class Greeting {
        final SocketChannel channel;
        final ByteBuffer hello = ByteBuffer.allocate(HELLO_LENGTH);

        Greeting(SocketChannel channel) {
            this.channel = channel;
        }
    }
}
