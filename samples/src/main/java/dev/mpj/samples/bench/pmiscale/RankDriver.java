package dev.mpj.samples.bench.pmiscale;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One thread of the simulation: a selector over its share of the ranks' sockets. It starts them a few at a time,
 * a new one when another has finished its start (a launcher's ranks do not all connect in the same millisecond; a
 * burst beyond the listen backlog would drop SYNs for seconds, and the server closes connections that do not
 * identify themselves within the init timeout), then drives each rank through the current part; a rank that finishes a part
 * waits there until the {@link Simulation} opens the next one for the whole job.
 */
final class RankDriver implements Runnable {
    /** Ranks connecting or starting at once, per thread. */
    private static final int CONNECTING = 64;

    private final Simulation simulation;
    /** Where the ranks of each node connect. */
    private final InetSocketAddress[] server;
    private final RankScript.Job job;
    private final ArrayDeque<SimulatedRank> unconnected;
    private final List<SimulatedRank> ranks;
    private final List<SimulatedRank> waiting = new ArrayList<>();
    private final Selector selector;
    private int connecting;
    private int part;
    private int finished;

    RankDriver(Simulation simulation, RankScript.Job job, InetSocketAddress[] server, List<SimulatedRank> ranks)
            throws IOException {
        this.simulation = simulation;
        this.job = job;
        this.server = server;
        this.ranks = ranks;
        this.unconnected = new ArrayDeque<>(ranks);
        this.selector = Selector.open();
    }

    /** The steps this thread's ranks completed, by {@link Step.Op}, then the gets the shared tables answered. */
    long[] counts() {
        long[] sum = new long[Step.Op.values().length + 1];
        for (SimulatedRank r : ranks) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += r.counts()[i];
            }
        }
        return sum;
    }

    void wakeup() {
        selector.wakeup();
    }

    @Override
    public void run() {
        try {
            while (!simulation.failed() && finished < ranks.size()) {
                connectSome();
                int open = simulation.part();
                if (open > part) {
                    part = open;
                    List<SimulatedRank> going = new ArrayList<>(waiting);
                    waiting.clear();
                    for (SimulatedRank r : going) {
                        if (!r.advance(part)) {
                            done(r);
                        }
                    }
                }
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    SimulatedRank r = (SimulatedRank) key.attachment();
                    if (key.isConnectable()) {
                        ((SocketChannel) key.channel()).finishConnect();
                        r.connected((SocketChannel) key.channel(), key);
                        if (!r.advance(0)) {
                            done(r);
                        }
                        continue;
                    }
                    if (key.isWritable()) {
                        r.flush();
                    }
                    if (key.isReadable() && !r.read()) {
                        done(r);
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (Throwable t) {
            simulation.fail(t);
        } finally {
            ranks.forEach(SimulatedRank::close);
            try {
                selector.close();
            } catch (IOException e) {
                // closing: nothing left to serve
            }
        }
    }

    private void connectSome() throws IOException {
        while (connecting < CONNECTING && !unconnected.isEmpty()) {
            SimulatedRank r = unconnected.poll();
            SocketChannel channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            SelectionKey key = channel.register(selector, SelectionKey.OP_CONNECT, r);
            connecting++;
            if (channel.connect(server[job.map().nodeOf(r.rank)])) {
                r.connected(channel, key);
                if (!r.advance(0)) {
                    done(r);
                }
            }
        }
    }

    /** {@code r} finished the current part: it waits for the next, or, after the finalize, closes. */
    private void done(SimulatedRank r) {
        if (part == 0) {
            connecting--;
        }
        if (part == 2) {
            r.close();
            finished++;
        } else {
            waiting.add(r);
        }
        simulation.arrived(part);
    }
}
