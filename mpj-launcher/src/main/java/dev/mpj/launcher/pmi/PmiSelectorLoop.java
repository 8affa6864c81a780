package dev.mpj.launcher.pmi;

import dev.mpj.runtime.spi.PlatformSelectorProvider;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The PMI server's one thread: a selector over the loopback acceptor and every client connection, accepting
 * connections and handing each readiness to its {@link PmiClientConnection}. Everything the server does happens
 * on this thread. A failed accept (out of file descriptors, say) pauses accepting, for 50 ms at first and twice
 * as long after each further failure up to 1 s, and never ends the loop.
 */
final class PmiSelectorLoop {
    /** What the loop serves. */
    interface Handler {
        /** A new connection from {@code source}: its object, or null to close it at once. */
        PmiClientConnection accepted(SocketChannel channel, SelectionKey key, InetAddress source, long nowNanos);

        /** Called after every pass; returns the nanoseconds until it needs to be called again. */
        long tick(long nowNanos);

        /** An accept failed; accepting pauses for {@code pauseMillis}. */
        void acceptFailed(IOException cause, long pauseMillis);

        /** The selector itself failed: nothing is served any more. */
        void failed(Exception cause);
    }

    /** How a connection is taken from the acceptor; a seam for tests that make it fail. */
    interface Accepting {
        SocketChannel accept(ServerSocketChannel acceptor) throws IOException;
    }

    /** {@link ServerSocketChannel#accept}, as a class: the launcher links no lambda before the ranks start. */
    static final Accepting ACCEPT = new AcceptEach();

    private static final class AcceptEach implements Accepting {
        @Override
        public SocketChannel accept(ServerSocketChannel acceptor) throws IOException {
            return acceptor.accept();
        }
    }

    /** The loop's thread. */
    private final class Serve implements Runnable {
        @Override
        public void run() {
            serve();
        }
    }

    static final long FIRST_ACCEPT_PAUSE_MILLIS = 50;
    static final long LAST_ACCEPT_PAUSE_MILLIS = 1000;

    private final Selector selector;
    private final ServerSocketChannel acceptor;
    private final SelectionKey acceptKey;
    private final Handler handler;
    private final Accepting accepting;
    private final Thread thread;
    private volatile boolean closing;
    /** Work handed in by other threads ({@link #execute}), run on the loop's thread after each pass. */
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private long acceptPauseMillis;
    /** While accepting is paused: when it resumes; 0 otherwise. */
    private long acceptResumesAt;

    private PmiSelectorLoop(Selector selector, ServerSocketChannel acceptor, SelectionKey acceptKey, Handler handler,
                            Accepting accepting) {
        this.selector = selector;
        this.acceptor = acceptor;
        this.acceptKey = acceptKey;
        this.handler = handler;
        this.accepting = accepting;
        this.thread = new Thread(new Serve(), "mpjrun-pmi-server");
        thread.setDaemon(true);
    }

    /**
     * Binds an ephemeral loopback port with room for {@code backlog} pending connections and starts serving.
     */
    static PmiSelectorLoop start(int backlog, Handler handler, Accepting accepting) throws IOException {
        PlatformSelectorProvider.name();
        Selector selector = Selector.open();
        ServerSocketChannel acceptor = null;
        SelectionKey acceptKey;
        try {
            acceptor = ServerSocketChannel.open();
            acceptor.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), backlog);
            acceptor.configureBlocking(false);
            acceptKey = acceptor.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException | RuntimeException e) {
            closeQuietly(acceptor);
            closeQuietly(selector);
            throw e;
        }
        PmiSelectorLoop loop = new PmiSelectorLoop(selector, acceptor, acceptKey, handler, accepting);
        loop.thread.start();
        return loop;
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) acceptor.getLocalAddress();
    }

    /** Runs {@code task} on the loop's thread, soon. */
    void execute(Runnable task) {
        tasks.add(task);
        selector.wakeup();
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
            long waitNanos = Long.MAX_VALUE;
            while (!closing) {
                selector.select(TimeUnit.NANOSECONDS.toMillis(waitNanos) + 1);
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key == acceptKey) {
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
                for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
                    task.run();
                }
                long now = System.nanoTime();
                waitNanos = Math.min(handler.tick(now), resumeAccepting(now));
            }
        } catch (IOException | RuntimeException e) {
            if (!closing) {
                handler.failed(e);
            }
        } finally {
            for (SelectionKey key : selector.keys()) {
                closeQuietly(key.channel());
            }
            closeQuietly(selector);
        }
    }

    private void accept() {
        while (true) {
            SocketChannel channel;
            try {
                channel = accepting.accept(acceptor);
            } catch (IOException e) {
                pauseAccepting(e);
                return;
            }
            if (channel == null) {
                return;
            }
            acceptPauseMillis = 0;
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                InetAddress source = ((InetSocketAddress) channel.getRemoteAddress()).getAddress();
                SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
                PmiClientConnection c = handler.accepted(channel, key, source, System.nanoTime());
                if (c == null) {
                    key.cancel();
                    channel.setOption(StandardSocketOptions.SO_LINGER, 0);
                    closeQuietly(channel);
                } else {
                    key.attach(c);
                }
            } catch (IOException e) {
                closeQuietly(channel); // the client went away while connecting: it will fail on its side
            }
        }
    }

    /** Stops selecting the acceptor for a while, longer after each failure in a row. */
    private void pauseAccepting(IOException cause) {
        acceptPauseMillis = acceptPauseMillis == 0 ? FIRST_ACCEPT_PAUSE_MILLIS
                : Math.min(2 * acceptPauseMillis, LAST_ACCEPT_PAUSE_MILLIS);
        acceptResumesAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(acceptPauseMillis);
        acceptKey.interestOps(0);
        handler.acceptFailed(cause, acceptPauseMillis);
    }

    /** Selects the acceptor again once its pause is over; returns the nanoseconds until then. */
    private long resumeAccepting(long nowNanos) {
        if (acceptResumesAt == 0) {
            return Long.MAX_VALUE;
        }
        long left = acceptResumesAt - nowNanos;
        if (left > 0) {
            return left;
        }
        acceptResumesAt = 0;
        acceptKey.interestOps(SelectionKey.OP_ACCEPT);
        return Long.MAX_VALUE;
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
