package dev.mpj.launcher.pmi;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.BiFunction;

/**
 * The PMI server's one thread: a selector over the loopback acceptor and every client connection, accepting
 * connections and handing each readiness to its {@link PmiClientConnection}. Everything the server does happens
 * on this thread.
 */
final class PmiSelectorLoop {
    private final Selector selector;
    private final ServerSocketChannel acceptor;
    private final BiFunction<SocketChannel, SelectionKey, PmiClientConnection> connections;
    private final PmiServer.Listener listener;
    private final Thread thread;
    private volatile boolean closing;

    private PmiSelectorLoop(Selector selector, ServerSocketChannel acceptor,
                            BiFunction<SocketChannel, SelectionKey, PmiClientConnection> connections,
                            PmiServer.Listener listener) {
        this.selector = selector;
        this.acceptor = acceptor;
        this.connections = connections;
        this.listener = listener;
        this.thread = new Thread(this::serve, "mpjrun-pmi-server");
        thread.setDaemon(true);
    }

    /**
     * Binds an ephemeral loopback port with room for {@code backlog} pending connections and starts serving.
     *
     * @param connections makes the connection object of each accepted channel
     * @param listener    told when the selector itself fails
     */
    static PmiSelectorLoop start(int backlog, BiFunction<SocketChannel, SelectionKey, PmiClientConnection> connections,
                                 PmiServer.Listener listener) throws IOException {
        Selector selector = Selector.open();
        ServerSocketChannel acceptor = null;
        try {
            acceptor = ServerSocketChannel.open();
            acceptor.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), backlog);
            acceptor.configureBlocking(false);
            acceptor.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException | RuntimeException e) {
            closeQuietly(acceptor);
            closeQuietly(selector);
            throw e;
        }
        PmiSelectorLoop loop = new PmiSelectorLoop(selector, acceptor, connections, listener);
        loop.thread.start();
        return loop;
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) acceptor.getLocalAddress();
    }

    /** Stops serving and closes every channel; waits for the thread to end. */
    void close() {
        closing = true;
        selector.wakeup();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void serve() {
        try {
            while (!closing) {
                selector.select();
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept();
                        continue;
                    }
                    PmiClientConnection c = (PmiClientConnection) key.attachment();
                    if (key.isWritable()) {
                        c.flush();
                    }
                    if (key.isValid() && key.isReadable()) {
                        c.read();
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException e) {
            if (!closing) {
                listener.serverFailed(e);
            }
        } finally {
            for (SelectionKey key : selector.keys()) {
                closeQuietly(key.channel());
            }
            closeQuietly(selector);
        }
    }

    private void accept() throws IOException {
        SocketChannel channel;
        while ((channel = acceptor.accept()) != null) {
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
                key.attach(connections.apply(channel, key));
            } catch (IOException e) {
                closeQuietly(channel); // the client went away while connecting: it will fail on its side
            }
        }
    }

    static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            // closing on the way out: nothing left to tell
        }
    }
}
