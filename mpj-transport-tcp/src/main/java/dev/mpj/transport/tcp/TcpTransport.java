package dev.mpj.transport.tcp;

import dev.mpj.runtime.spi.InitLinkTransport;
import dev.mpj.runtime.spi.InitMessenger;
import dev.mpj.runtime.spi.ConnectionStats;
import dev.mpj.runtime.spi.PeerConnector;
import dev.mpj.runtime.spi.Idling;
import dev.mpj.runtime.spi.TcpOptions;
import dev.mpj.runtime.spi.FrameHeader;
import dev.mpj.runtime.spi.FrameSink;
import dev.mpj.runtime.spi.Transport;
import dev.mpj.runtime.spi.TransportContext;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channel;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;

/**
 * Frames between ranks over TCP, with Netty.
 * <p>
 * Each rank has one listener, bound with the JDK in {@link #start} so that the address is known at once; the
 * Netty event loops are built on a background thread and take the listener over (connections arriving
 * meanwhile wait in the kernel's backlog, sized for the job). A connection opens with a handshake in which
 * the connecting rank proves it knows the listener's credential, published only in the address.
 * <p>
 * A pair of ranks has one connection, which carries frames both ways: the first {@link #send} to a peer, or
 * {@link #connect}, opens it unless the peer's connection has been admitted already. When both ranks connect
 * at once, the connection opened by the lower rank wins: the higher rank admits it and moves the frames queued
 * on its own attempt onto it, in order, while the lower rank answers the higher rank's attempt SUPERSEDED and
 * both close that attempt, on which nothing was written (no frame flows before the handshake completes). The
 * decision is taken on each side under the peer's lock, against what that side has already committed to, so
 * both sides agree: if the lower rank had admitted the higher rank's attempt first, it would not have connected
 * itself.
 * <p>
 * Threading ({@code mpj.tcp.progress}, see {@link TcpEventLoops}): {@code send} copies the frame into a pooled
 * direct buffer and queues it on the connection. By default the thread that calls MPI drives the sockets itself:
 * {@code send} then writes the frame at once, and {@link #poll} (every progress pass of the engine) reads what has
 * arrived and hands it to the sink on that thread, so a ping-pong costs no thread hand-off; a standby thread drives
 * them while the MPI thread stays away. With {@code threads}, Netty's event-loop threads write what is queued and
 * push inbound frames to the sink from their own threads. Either way, inbound frames reach the sink as slices of
 * the received bytes.
 * <p>
 * A connection that ends without the peer's BYE (the peer crashed, or broke the protocol) is reported once
 * per peer through {@link FrameSink#onPeerLost}; so is a peer that cannot be connected to.
 */
public final class TcpTransport implements Transport, PeerConnector, InitLinkTransport {
    static final String NAME = "tcp";

    private static final int MIN_BACKLOG = 128;
    /** {@link #standbyAwayNanos} when the wait policy decides it. */
    static final long FROM_WAIT_POLICY = -1;
    private static final long CLOSE_TIMEOUT_MILLIS = 2_000;
    /** Bounds how long close() waits for the background start, which normally takes a fraction of a second. */
    private static final long START_TIMEOUT_MILLIS = 30_000;

    private final AtomicBoolean closed = new AtomicBoolean();
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger initiated = new AtomicInteger();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger superseded = new AtomicInteger();

    private final long standbyAwayNanos;
    private int rank;
    private int size;
    private FrameSink sink;
    private int maxFrame;
    private long handshakeTimeoutMillis;
    private TcpAddress self;
    private ServerSocketChannel listener;
    /** A node root's links for the roots allgather, until the runtime takes them; null otherwise. */
    private TcpInitLinks initLinks;
    private Peer[] peers;
    private boolean callerProgress;
    private CompletableFuture<TcpEventLoops> eventLoops;
    /** The event loops once started, for the MPI thread's fast path. */
    private volatile TcpEventLoops started;

    /** What this rank knows about one peer. */
    private static final class Peer {
        final AtomicBoolean lost = new AtomicBoolean();
        /** Completes when the pair's connection is ready, whichever side opened it. */
        final CompletableFuture<Void> connected = new CompletableFuture<>();
        volatile TcpAddress address;
        /**
         * The connection every frame to this peer goes through, once chosen: our own attempt, or the peer's
         * admitted connection. Guarded by this peer for changes.
         */
        volatile Connection sender;
        /** Whether a frame went to or came from this peer. */
        volatile boolean talked;
    }

    /** The standby takes over after the wait policy's {@link Idling#standbyAfterNanos()}. */
    public TcpTransport() {
        this(FROM_WAIT_POLICY);
    }

    /**
     * With {@code mpj.tcp.progress=caller}: the standby drives the sockets once nobody has for this long
     * ({@link #FROM_WAIT_POLICY}: as the rank's wait policy says).
     */
    TcpTransport(long standbyAwayNanos) {
        this.standbyAwayNanos = standbyAwayNanos;
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Binds the listener on {@code mpj.tcp.host}, port 0, and returns its {@link TcpAddress} encoded; the
     * event loops start in the background.
     *
     * @throws IllegalArgumentException if {@code mpj.tcp.host} is a wildcard address, which peers cannot reach
     * @throws IllegalStateException    if already started
     */
    @Override
    public synchronized byte[] start(TransportContext context) throws IOException {
        if (peers != null) {
            throw new IllegalStateException("TCP transport already started");
        }
        TcpOptions options = context.tcp();
        InetAddress host = InetAddress.getByName(options.host());
        if (host.isAnyLocalAddress()) {
            throw new IllegalArgumentException(TcpOptions.HOST_SETTING + " must be an address peers can reach, not "
                    + host.getHostAddress());
        }
        rank = context.rank();
        size = context.size();
        sink = context.sink();
        maxFrame = options.maxFrame();
        handshakeTimeoutMillis = TimeUnit.SECONDS.toMillis(options.handshakeTimeoutSeconds());
        int ioThreads = options.ioThreads();
        callerProgress = options.callerProgress();
        // before the first Netty class initialises: its logger, and two of its start-up probes
        NettyLog.install(options.nettyLogToStderr());
        NettyDefaults.apply();
        // once: the init links' idling and the standby's patience follow the same decision
        Idling waitPolicy = context.idling();

        ServerSocketChannel bound = listen(host, "(" + TcpOptions.HOST_SETTING + ")");
        listener = bound;
        ServerSocketChannel initListener = null;
        if (context.initLinks()) {
            try {
                initListener = listen(host, "for init links");
            } catch (IOException e) {
                bound.close();
                throw e;
            }
        }
        self = new TcpAddress(host, ((InetSocketAddress) bound.getLocalAddress()).getPort(),
                TcpAddress.newCredential(),
                initListener == null ? 0 : ((InetSocketAddress) initListener.getLocalAddress()).getPort());
        peers = new Peer[size];
        for (int i = 0; i < size; i++) {
            peers[i] = new Peer();
        }
        if (initListener != null) {
            initLinks = new TcpInitLinks(initListener, rank, size, self, new KnownAddresses(peers),
                    waitPolicy.pollingIdleStrategy(), TimeUnit.MILLISECONDS.toNanos(handshakeTimeoutMillis));
        }

        eventLoops = new CompletableFuture<>();
        long standbyAfter = standbyAwayNanos == FROM_WAIT_POLICY ? waitPolicy.standbyAfterNanos() : standbyAwayNanos;
        Thread starter = new Thread(() -> startEventLoops(ioThreads, standbyAfter), "mpj-tcp-start");
        starter.setDaemon(true);
        starter.start();
        return self.encode();
    }

    /** On the starter thread, which stays on as the standby driver of a driven loop. */
    private void startEventLoops(int ioThreads, long standbyAfterNanos) {
        TcpEventLoops loops;
        try {
            loops = TcpEventLoops.start(listener, callerProgress, ioThreads, standbyAfterNanos, inboundInitializer(),
                    (int) Math.min(Integer.MAX_VALUE, handshakeTimeoutMillis));
        } catch (Throwable e) {
            TcpLog.warn("cannot start the TCP event loops: " + TcpLog.describe(e));
            closeQuietly(listener);
            eventLoops.completeExceptionally(e);
            return;
        }
        started = loops;
        eventLoops.complete(loops);
        loops.runStandby();
    }

    /**
     * @throws IllegalArgumentException if {@code rank} is not a rank of the job or the address is malformed
     */
    @Override
    public void addPeer(int rank, byte[] address) {
        peer(rank).address = TcpAddress.decode(address);
    }

    @Override
    public synchronized InitMessenger initLinks() {
        InitMessenger links = initLinks;
        initLinks = null;
        return links;
    }

    /**
     * Copies the frame and queues it on the connection to {@code peer}, opening that connection if needed.
     * Frames to a peer that was lost are dropped: the sink has been told.
     *
     * @throws IllegalArgumentException if {@code peer} is not another rank of the job, the header is not
     *                                  {@link FrameHeader#LENGTH} bytes of a known kind, or the frame is
     *                                  longer than {@code mpj.tcp.maxFrame}
     * @throws IllegalStateException    if the transport is closed, or this rank has neither the peer's
     *                                  address nor a connection from it
     */
    @Override
    public void send(int peer, ByteBuffer header, ByteBuffer payload) {
        Peer p = peer(peer);
        if (peer == rank) {
            throw new IllegalArgumentException("rank " + rank + " cannot send to itself over TCP");
        }
        if (header.remaining() != FrameHeader.LENGTH) {
            throw new IllegalArgumentException("frame header must be " + FrameHeader.LENGTH + " bytes, not "
                    + header.remaining());
        }
        byte kind = header.get(header.position() + FrameHeader.KIND_OFFSET);
        if (!FrameHeader.isKnownKind(kind)) {
            throw new IllegalArgumentException("unknown frame kind " + kind);
        }
        long length = (long) FrameHeader.LENGTH + payload.remaining();
        if (length > maxFrame) {
            throw new IllegalArgumentException("frame of " + length + " bytes exceeds "
                    + TcpOptions.MAX_FRAME_SETTING + " (" + maxFrame + ")");
        }
        if (closed.get()) {
            throw new IllegalStateException("TCP transport is closed");
        }
        if (!p.talked) {
            p.talked = true;
        }
        // the event-loop start initialises the allocator, so it is usually ready by the first send
        ByteBuf frame = WireFormat.frame(ByteBufAllocator.DEFAULT, header, payload);
        TcpEventLoops loops = started;
        boolean holding = loops != null && loops.tryHold(); // then the connection writes it on this thread
        try {
            senderTo(peer, p).enqueue(frame);
        } finally {
            if (holding) {
                loops.release();
            }
        }
    }

    /**
     * Reads and writes the sockets on the calling thread, handing arrived frames to the sink, when this thread drives
     * them ({@code mpj.tcp.progress=caller}); returns the I/O events and tasks handled.
     */
    @Override
    public int poll() {
        TcpEventLoops loops = started;
        return loops == null ? 0 : loops.poll();
    }

    /** True when the thread that calls MPI drives the sockets, so nobody wakes it when a frame arrives. */
    @Override
    public boolean needsPolling() {
        return callerProgress;
    }

    private Connection senderTo(int rank, Peer p) {
        Connection sender = p.sender;
        if (sender != null) {
            return sender;
        }
        synchronized (p) {
            if (p.sender == null) {
                p.sender = open(rank, p);
            }
            return p.sender;
        }
    }

    /**
     * Opens the connection to {@code peer} unless one is open or opening; see {@link PeerConnector#connect}.
     *
     * @throws IllegalStateException if this rank has no address for the peer
     */
    @Override
    public CompletableFuture<Void> connect(int peer) {
        Peer p = peer(peer);
        if (peer == rank) {
            throw new IllegalArgumentException("rank " + rank + " cannot connect to itself");
        }
        senderTo(peer, p);
        return p.connected;
    }

    @Override
    public CompletableFuture<Void> ready() {
        if (eventLoops == null) {
            throw new IllegalStateException("TCP transport not started");
        }
        return eventLoops.thenApply(loops -> null);
    }

    @Override
    public CompletableFuture<Void> connected(int peer) {
        return peer(peer).connected;
    }

    @Override
    public ConnectionStats connectionStats() {
        int talked = 0;
        if (peers != null) {
            for (Peer p : peers) {
                talked += p.talked ? 1 : 0;
            }
        }
        return new ConnectionStats(initiated.get(), accepted.get(), superseded.get(), talked);
    }

    private Connection open(int rank, Peer p) {
        TcpAddress address = p.address;
        if (address == null) {
            throw new IllegalStateException("no TCP address for rank " + rank + " (addPeer was not called)");
        }
        Connection connection = new Connection(this.rank, rank);
        connections.add(connection);
        eventLoops.whenComplete(new Dial(connection, address));
        return connection;
    }

    /**
     * An outbound connection to one peer: sets up its pipeline, connects once the event loops have started, and
     * gives the pair up if it cannot. A class, not lambdas, for the reason {@code TcpEventLoops.ConnectAttempt} is one.
     */
    private final class Dial extends ChannelInitializer<SocketChannel>
            implements BiConsumer<TcpEventLoops, Throwable>, TcpEventLoops.ConnectOutcome {
        private final Connection connection;
        private final TcpAddress address;

        Dial(Connection connection, TcpAddress address) {
            this.connection = connection;
            this.address = address;
        }

        @Override
        protected void initChannel(SocketChannel ch) {
            connection.attach(ch);
            ch.pipeline().addLast(
                    new HandshakeConnector(connection, rank, address.credential(), handshakeTimeoutMillis,
                            TcpTransport.this),
                    new FrameDecoder(maxFrame),
                    new FrameHandler(TcpTransport.this, connection));
        }

        /** The event loops have started, or failed to. */
        @Override
        public void accept(TcpEventLoops loops, Throwable startFailure) {
            if (startFailure != null) {
                gaveUp(startFailure);
            } else {
                loops.connect(address.socketAddress(), this, this);
            }
        }

        @Override
        public boolean stopRetrying() {
            return closed.get();
        }

        @Override
        public void gaveUp(Throwable cause) {
            connectFailed(connection, address, cause);
        }
    }

    private void connectFailed(Connection connection, TcpAddress address, Throwable cause) {
        connections.remove(connection);
        if (connection.isSuperseded()) {
            return; // the peer's own connection carries the pair
        }
        connection.finish();
        if (!closed.get()) {
            int peer = connection.peer();
            TcpLog.warn("cannot connect to rank " + peer + " at " + address + ": " + TcpLog.describe(cause));
            peerLost(peer, new IOException("cannot connect to rank " + peer + " at " + address, cause));
        }
    }

    private ChannelHandler inboundInitializer() {
        return new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                Connection connection = new Connection(rank, -1);
                connection.attach(ch);
                connections.add(connection);
                ch.pipeline().addLast(
                        new HandshakeAcceptor(connection, rank, size, self, handshakeTimeoutMillis,
                                TcpTransport.this),
                        new FrameDecoder(maxFrame),
                        new FrameHandler(TcpTransport.this, connection));
                if (closed.get()) {
                    ch.close();
                }
            }
        };
    }

    /**
     * On the event loop: an inbound connection proved it comes from {@code peer}; decides whether it carries
     * the pair. Yes when we have no connection to the peer, or only our own attempt and the peer has the lower
     * rank (our attempt's frames move onto it); no when our own attempt wins (we have the lower rank), or the
     * peer already has a connection, which a correct peer never opens twice.
     */
    boolean admit(Connection inbound, int peer) {
        Peer p = peers[peer];
        synchronized (p) {
            Connection current = p.sender;
            if (current == null) {
                p.sender = inbound;
                return true;
            }
            boolean ownAttempt = current.isOutbound() && !current.isFinished();
            if (ownAttempt && peer < rank) {
                current.handOver(inbound);
                connections.remove(current);
                p.sender = inbound;
                return true;
            }
            if (!ownAttempt) {
                TcpLog.warn("rank " + peer + " opened a second connection; keeping the first");
            }
            return false;
        }
    }

    /** On the event loop: {@code connection} completed its handshake and carries its pair from now on. */
    void connectionReady(Connection connection, boolean outbound) {
        (outbound ? initiated : accepted).incrementAndGet();
        peers[connection.peer()].connected.complete(null);
    }

    /**
     * On the event loop: the peer kept its own connection to us instead of this attempt. Its frames wait for
     * that connection; if it does not arrive within the handshake timeout, the peer is lost.
     */
    void outboundSuperseded(Connection attempt) {
        superseded.incrementAndGet();
        attempt.supersede();
        if (attempt.awaitsSuccessor()) {
            attempt.channel().eventLoop().schedule(() -> {
                if (attempt.awaitsSuccessor()) {
                    connections.remove(attempt);
                    attempt.finish();
                    peerLost(attempt.peer(), new IOException("rank " + attempt.peer()
                            + " kept its own connection but it never arrived"));
                }
            }, handshakeTimeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** On the event loop: one decoded frame (without its length field), owned by this call. */
    void frameReceived(Connection connection, ByteBuf frame) {
        if (frame.getByte(frame.readerIndex() + FrameHeader.KIND_OFFSET) == WireFormat.BYE) {
            connection.byeReceived();
            frame.release();
        } else if (closed.get()) {
            frame.release();
        } else {
            Peer p = peers[connection.peer()];
            if (!p.talked) {
                p.talked = true;
            }
            sink.onFrame(connection.peer(), frame.nioBuffer().order(ByteOrder.LITTLE_ENDIAN), new FrameRelease(frame));
        }
    }

    /** On the event loop: the connection's channel closed. */
    void connectionClosed(Connection connection) {
        if (connection.isSuperseded()) {
            if (!connection.awaitsSuccessor()) {
                connections.remove(connection);
            }
            return; // closed on purpose after losing a tie-break; the winner carries the pair
        }
        connections.remove(connection);
        if (!connection.finish()) {
            return;
        }
        int peer = connection.peer();
        if (peer < 0 || connection.hasReceivedBye() || closed.get()) {
            return;
        }
        Throwable failure = connection.failure();
        if (failure == null) {
            TcpLog.warn("lost connection with " + connection + ": closed without BYE");
        }
        peerLost(peer, new IOException("connection with rank " + peer + " closed without BYE"
                + (failure == null ? "" : ": " + TcpLog.describe(failure)), failure));
    }

    private void peerLost(int peer, Throwable cause) {
        if (!closed.get() && peers[peer].lost.compareAndSet(false, true)) {
            peers[peer].connected.completeExceptionally(cause);
            sink.onPeerLost(peer, cause);
        }
    }

    boolean isClosed() {
        return closed.get();
    }

    /** The connections open now, for tests that break one. */
    List<Connection> connections() {
        return List.copyOf(connections);
    }

    /**
     * Writes what is queued and a BYE on every connection, waits up to about two seconds for the peers to
     * close their ends, then stops the event loops. Call from the MPI thread, never from a frame sink.
     * Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true) || eventLoops == null) {
            return;
        }
        InitMessenger links = initLinks();
        if (links != null) {
            links.close();
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_TIMEOUT_MILLIS);
        TcpEventLoops loops;
        try {
            loops = eventLoops.get(START_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            closeQuietly(listener);
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeQuietly(listener);
            return;
        }
        loops.closeListener(CLOSE_TIMEOUT_MILLIS);
        for (Connection connection : connections) {
            connection.requestClose();
        }
        loops.await(() -> connections.stream().allMatch(Connection::isFinished), deadline);
        loops.shutdown(500);
        for (Connection connection : connections) {
            connection.finish(); // frames still queued on connections that never opened
        }
        connections.clear();
    }

    private Peer peer(int rank) {
        if (peers == null) {
            throw new IllegalStateException("TCP transport not started");
        }
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " is not in [0, " + size + ")");
        }
        return peers[rank];
    }

    /** A listener on {@code host}, port 0, with a backlog for every rank of the job; {@code what} for errors. */
    private ServerSocketChannel listen(InetAddress host, String what) throws IOException {
        ServerSocketChannel channel = ServerSocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(new InetSocketAddress(host, 0), Math.max(MIN_BACKLOG, size));
            return channel;
        } catch (IOException e) {
            channel.close();
            throw new IOException("cannot listen on " + host.getHostAddress() + " " + what + ": "
                    + TcpLog.describe(e), e);
        }
    }

    static void closeQuietly(Channel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing left to do with it
        }
    }

    /** Peers' addresses as {@link #addPeer} recorded them, for the init links (a class: no lambda in init). */
    private record KnownAddresses(Peer[] peers) implements IntFunction<TcpAddress> {
        @Override
        public TcpAddress apply(int rank) {
            return rank >= 0 && rank < peers.length ? peers[rank].address : null;
        }
    }
}
