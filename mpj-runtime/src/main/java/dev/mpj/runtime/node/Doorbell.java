package dev.mpj.runtime.node;

import org.agrona.collections.Int2ObjectHashMap;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.function.Consumer;

/**
 * How a process of a node sleeps until another process of the node wakes it: a UDP socket on the loopback interface,
 * whose port the sleeper publishes where the waker looks (the node segment). The sleeper blocks in {@link #sleep};
 * the waker sends one datagram to that port ({@link #ring}), and the kernel makes the sleeper runnable at once,
 * with no timer between, as a futex wakes a thread of the same process. Opened at its first use, so a process that
 * never sleeps holds no socket; one thread at a time uses it.
 */
public final class Doorbell implements Closeable {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final long longestSleepMillis;

    private DatagramChannel channel;
    private Selector selector;
    private int port;
    private boolean broken;
    /** Direct, so that a ring sent or taken is not copied through a temporary one. */
    private final ByteBuffer received = ByteBuffer.allocateDirect(16);
    private final ByteBuffer ding = ByteBuffer.allocateDirect(1);
    /** Takes a selected key without adding it to the selector's set, which would allocate at every ring. */
    private final Consumer<SelectionKey> rung = new Rung();
    private final Int2ObjectHashMap<InetSocketAddress> peers = new Int2ObjectHashMap<>();

    /**
     * A doorbell whose sleeps last at most {@code longestSleepMillis}: how late at most a sleeper notices what no
     * ring tells it of.
     */
    public Doorbell(long longestSleepMillis) {
        if (longestSleepMillis <= 0) {
            throw new IllegalArgumentException("longest sleep " + longestSleepMillis + " ms > 0");
        }
        this.longestSleepMillis = longestSleepMillis;
    }

    /** The port others ring this doorbell at, opening it if need be; 0 when it cannot be opened. */
    public int port() {
        if (channel == null && !broken) {
            open();
        }
        return port;
    }

    private void open() {
        try {
            DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET);
            c.bind(new InetSocketAddress(LOOPBACK, 0));
            c.configureBlocking(false);
            Selector s = Selector.open();
            c.register(s, SelectionKey.OP_READ);
            port = ((InetSocketAddress) c.getLocalAddress()).getPort();
            channel = c;
            selector = s;
        } catch (IOException | RuntimeException e) {
            broken = true;
        }
    }

    /**
     * Blocks until the doorbell rings or its longest sleep passes, and takes every ring that came meanwhile, so that a
     * ring meant for an earlier sleep does not end the next one. Returns at once when the doorbell is not open.
     */
    public void sleep() {
        Selector s = selector;
        if (s == null) {
            return;
        }
        try {
            s.select(rung, longestSleepMillis);
            do {
                received.clear();
            } while (channel.receive(received) != null);
        } catch (IOException e) {
            broken = true;
            closeQuietly();
        }
    }

    /**
     * Wakes the process whose doorbell is at {@code port}; a ring lost (the socket's buffer full of rings the
     * sleeper has not taken yet) changes nothing, since those rings wake it anyway.
     */
    public void ring(int port) {
        if (port() == 0) {
            return;
        }
        InetSocketAddress to = peers.get(port);
        if (to == null) {
            to = new InetSocketAddress(LOOPBACK, port);
            peers.put(port, to);
        }
        try {
            ding.clear();
            channel.send(ding, to);
        } catch (IOException e) {
            // the sleeper's bounded sleep ends anyway
        }
    }

    @Override
    public void close() {
        closeQuietly();
        broken = true;
    }

    private void closeQuietly() {
        try {
            if (selector != null) {
                selector.close();
            }
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            // nothing left to release
        }
        selector = null;
        channel = null;
        port = 0;
    }

    /** A class, not a lambda, whose linkage would be a bootstrap call at the first sleep. */
    private static final class Rung implements Consumer<SelectionKey> {
        @Override
        public void accept(SelectionKey key) {
            // the rings are taken after the select
        }
    }
}
