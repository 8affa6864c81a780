package dev.mpj.transport.tcp;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The Netty side of the transport: the event loops, the listener registered with them, and outbound connects.
 * Built on a background thread after the listener was bound with the JDK, because creating it costs about 150 ms
 * in a cold JVM (class loading and thread start) that should not delay {@code MPI.Init}.
 * <p>
 * Two ways to run the sockets ({@code mpj.tcp.progress}):
 * <ul>
 *   <li>{@link TcpProgress#CALLER} (the default): one {@link DrivenEventLoop}, run by the thread that calls MPI on
 *       every progress pass ({@link #poll}) and send ({@link #tryHold}), so frames are written and read on that
 *       thread; the background thread that built it stays as its {@link StandbyDriver}.</li>
 *   <li>{@link TcpProgress#THREADS}: {@code mpj.tcp.ioThreads} Netty event-loop threads own the sockets; sends are
 *       queued for them and inbound frames pushed from them.</li>
 * </ul>
 */
final class TcpEventLoops {
    /** A peer that has just published its address may not accept yet for a few milliseconds. */
    private static final int CONNECT_ATTEMPTS = 6;
    private static final long FIRST_RETRY_DELAY_MILLIS = 10;

    /** A bound on each wait while closing with a driven loop, so the deadline is checked. */
    private static final long CLOSE_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final EventLoopGroup group;
    private final Channel listener;
    private final Bootstrap connector;
    /** The loop the MPI thread drives, or null with event-loop threads. */
    private final DrivenEventLoop driven;
    private final StandbyDriver standby;

    private TcpEventLoops(EventLoopGroup group, Channel listener, Bootstrap connector, DrivenEventLoop driven,
                          long standbyAwayNanos) {
        this.group = group;
        this.listener = listener;
        this.connector = connector;
        this.driven = driven;
        this.standby = driven == null ? null : new StandbyDriver(driven, standbyAwayNanos);
    }

    /**
     * Starts the event loops ({@code threads} of them, or one driven loop whose standby takes it after
     * {@code standbyAwayNanos} untaken), hands them the already-bound {@code boundListener} and returns once it
     * accepts connections (which the kernel has been queueing meanwhile).
     */
    static TcpEventLoops start(ServerSocketChannel boundListener, boolean callerProgress, int threads,
                               long standbyAwayNanos, ChannelHandler childInitializer, int connectTimeoutMillis)
            throws InterruptedException {
        DrivenEventLoop driven = callerProgress ? new DrivenEventLoop(NioIoHandler.newFactory()) : null;
        EventLoopGroup group = driven != null ? driven
                : new ThreadLoopGroup(threads, new DefaultThreadFactory("mpj-tcp", true), NioIoHandler.newFactory());
        if (driven != null && !driven.acquire()) {
            throw new IllegalStateException("a new TCP event loop is held");
        }
        try {
            ChannelFuture registered = new ServerBootstrap()
                    .group(group)
                    .channelFactory(() -> new NioServerSocketChannel(boundListener))
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.SO_KEEPALIVE, true)
                    .childHandler(childInitializer)
                    .register();
            if (driven != null) {
                while (!registered.isDone()) {
                    driven.runNow();
                }
                registered.sync(); // rethrows a failure; done, so it does not block
            } else {
                registered.sync();
            }
            Bootstrap connector = new Bootstrap()
                    .group(group)
                    .channel(NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.SO_KEEPALIVE, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis);
            ByteBufAllocator.DEFAULT.directBuffer(1).release(); // load the allocator here, not on the first send
            return new TcpEventLoops(group, registered.channel(), connector, driven, standbyAwayNanos);
        } catch (RuntimeException | InterruptedException e) {
            if (driven != null) {
                driven.terminate();
            } else {
                group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            }
            throw e;
        } finally {
            if (driven != null) {
                driven.release();
            }
        }
    }

    /** Whether the thread that calls MPI must drive the sockets through {@link #poll}. */
    boolean needsPolling() {
        return driven != null;
    }

    /**
     * Keeps the calling thread as the standby driver of a driven loop until {@link #shutdown}; returns at once
     * with event-loop threads.
     */
    void runStandby() {
        if (standby != null) {
            standby.run();
        }
    }

    /**
     * One pass of a driven loop on the calling thread: writes what is pending, reads what has arrived (frames go
     * to the sink from here) and runs due tasks; returns how many. 0 with event-loop threads, or when the standby
     * holds the loop (it gives it back, and meanwhile pushes frames as event-loop threads do).
     */
    int poll() {
        if (driven == null || !driven.tryHold()) {
            return 0;
        }
        try {
            return driven.runNow();
        } finally {
            driven.release();
        }
    }

    /**
     * Takes a driven loop for the calling thread, so that channel operations it makes until {@link #release} run
     * inline; false with event-loop threads or when the loop is held elsewhere (operations are then queued).
     */
    boolean tryHold() {
        return driven != null && driven.tryHold();
    }

    void release() {
        driven.release();
    }

    /**
     * Waits until {@code done} holds or the deadline ({@link System#nanoTime}) passes, driving a driven loop
     * meanwhile; returns whether {@code done} holds.
     */
    boolean await(BooleanSupplier done, long deadlineNanos) {
        while (!done.getAsBoolean()) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (driven != null && driven.tryHold()) {
                try {
                    driven.run(Math.min(left, CLOSE_WAIT_NANOS));
                } finally {
                    driven.release();
                }
            } else {
                LockSupport.parkNanos(Math.min(left, CLOSE_WAIT_NANOS));
            }
        }
        return true;
    }

    /** Whom a {@link #connect} reports to: whether to stop retrying, and the last cause once it gives up. */
    interface ConnectOutcome {
        boolean stopRetrying();

        void gaveUp(Throwable cause);
    }

    /**
     * Connects to {@code address} with the pipeline {@code initializer} sets up, retrying with doubling delays (10 ms,
     * 20 ms, ... five times) while the peer refuses; {@code outcome} gets the last cause once every attempt failed or
     * it said to stop.
     */
    void connect(InetSocketAddress address, ChannelHandler initializer, ConnectOutcome outcome) {
        new ConnectAttempt(address, initializer, outcome, 1).run();
    }

    /**
     * One attempt of {@link #connect}, and its retry. A class, not lambdas: an on-demand job connects in its first
     * calls, where linking a lambda's call site in a cold JVM would add to them.
     */
    private final class ConnectAttempt implements ChannelFutureListener, Runnable {
        private final InetSocketAddress address;
        private final ChannelHandler initializer;
        private final ConnectOutcome outcome;
        private final int attempt;

        ConnectAttempt(InetSocketAddress address, ChannelHandler initializer, ConnectOutcome outcome, int attempt) {
            this.address = address;
            this.initializer = initializer;
            this.outcome = outcome;
            this.attempt = attempt;
        }

        @Override
        public void run() {
            connector.clone().handler(initializer).connect(address).addListener(this);
        }

        @Override
        public void operationComplete(ChannelFuture f) {
            if (f.isSuccess()) {
                return;
            }
            // a timeout already waited long: retry only a refusal, which a listener about to start gives
            if (attempt >= CONNECT_ATTEMPTS || f.cause() instanceof ConnectTimeoutException || outcome.stopRetrying()) {
                outcome.gaveUp(f.cause());
                return;
            }
            long delay = FIRST_RETRY_DELAY_MILLIS << (attempt - 1);
            try {
                group.schedule(new ConnectAttempt(address, initializer, outcome, attempt + 1), delay,
                        TimeUnit.MILLISECONDS);
            } catch (RuntimeException shuttingDown) {
                outcome.gaveUp(f.cause());
            }
        }
    }

    /** Stops accepting connections, waiting at most {@code timeoutMillis}. */
    void closeListener(long timeoutMillis) {
        ChannelFuture closing = listener.close();
        await(closing::isDone, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
    }

    /** Closes every channel and stops the threads (or the standby), waiting at most about {@code timeoutMillis}. */
    void shutdown(long timeoutMillis) {
        if (driven == null) {
            ((ThreadLoopGroup) group).shutdown(timeoutMillis);
            return;
        }
        standby.stop(timeoutMillis);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!driven.acquire()) {
            if (System.nanoTime() - deadline > 0) {
                TcpLog.warn("TCP event loop still held at shutdown; leaving it");
                return;
            }
            LockSupport.parkNanos(CLOSE_WAIT_NANOS);
        }
        try {
            driven.terminate();
        } finally {
            driven.release();
        }
    }
}
