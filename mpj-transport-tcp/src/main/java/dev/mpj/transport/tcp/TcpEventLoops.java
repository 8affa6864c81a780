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
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The Netty side of the transport: the event-loop threads, the listener registered with them, and outbound
 * connects. Built on a background thread after the listener was bound with the JDK, because creating it
 * costs about 150 ms in a cold JVM (class loading and thread start) that should not delay {@code MPI.Init}.
 */
final class TcpEventLoops {
    /** A peer that has just published its address may not accept yet for a few milliseconds. */
    private static final int CONNECT_ATTEMPTS = 6;
    private static final long FIRST_RETRY_DELAY_MILLIS = 10;

    private final EventLoopGroup group;
    private final Channel listener;
    private final Bootstrap connector;

    private TcpEventLoops(EventLoopGroup group, Channel listener, Bootstrap connector) {
        this.group = group;
        this.listener = listener;
        this.connector = connector;
    }

    /**
     * Starts {@code threads} event loops, hands them the already-bound {@code boundListener} and returns once
     * it accepts connections (which the kernel has been queueing meanwhile).
     */
    static TcpEventLoops start(ServerSocketChannel boundListener, int threads, ChannelHandler childInitializer,
                               int connectTimeoutMillis) throws InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("mpj-tcp", true),
                NioIoHandler.newFactory());
        try {
            ChannelFuture registered = new ServerBootstrap()
                    .group(group)
                    .channelFactory(() -> new NioServerSocketChannel(boundListener))
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.SO_KEEPALIVE, true)
                    .childHandler(childInitializer)
                    .register()
                    .sync();
            Bootstrap connector = new Bootstrap()
                    .group(group)
                    .channel(NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.SO_KEEPALIVE, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis);
            ByteBufAllocator.DEFAULT.directBuffer(1).release(); // load the allocator here, not on the first send
            return new TcpEventLoops(group, registered.channel(), connector);
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    /**
     * Connects to {@code address} with the pipeline {@code initializer} sets up, retrying with doubling
     * delays (10 ms, 20 ms, ... five times) while the peer refuses; {@code onGiveUp} gets the last cause once every attempt failed or
     * {@code stop} says to give up.
     */
    void connect(InetSocketAddress address, ChannelHandler initializer, BooleanSupplier stop,
                 Consumer<Throwable> onGiveUp) {
        connect(address, initializer, stop, onGiveUp, 1);
    }

    private void connect(InetSocketAddress address, ChannelHandler initializer, BooleanSupplier stop,
                         Consumer<Throwable> onGiveUp, int attempt) {
        connector.clone().handler(initializer).connect(address).addListener((ChannelFutureListener) f -> {
            if (f.isSuccess()) {
                return;
            }
            // a timeout already waited long: retry only a refusal, which a listener about to start gives
            if (attempt >= CONNECT_ATTEMPTS || f.cause() instanceof ConnectTimeoutException || stop.getAsBoolean()) {
                onGiveUp.accept(f.cause());
                return;
            }
            long delay = FIRST_RETRY_DELAY_MILLIS << (attempt - 1);
            try {
                group.schedule(() -> connect(address, initializer, stop, onGiveUp, attempt + 1),
                        delay, TimeUnit.MILLISECONDS);
            } catch (RuntimeException shuttingDown) {
                onGiveUp.accept(f.cause());
            }
        });
    }

    /** Stops accepting connections. */
    void closeListener() {
        listener.close().awaitUninterruptibly();
    }

    /** Closes every channel and stops the threads, waiting at most {@code timeoutMillis}. */
    void shutdown(long timeoutMillis) {
        group.shutdownGracefully(0, timeoutMillis, TimeUnit.MILLISECONDS)
                .awaitUninterruptibly(timeoutMillis + 500, TimeUnit.MILLISECONDS);
    }
}
