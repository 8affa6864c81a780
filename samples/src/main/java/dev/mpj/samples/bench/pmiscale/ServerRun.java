package dev.mpj.samples.bench.pmiscale;

import dev.mpj.launcher.agent.NodeAgent;
import dev.mpj.launcher.agent.TreeShape;
import dev.mpj.launcher.pmi.PmiServer;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * mpjrun's PMI server for one simulated job of {@code size} ranks on {@code nodes} nodes (rank blocks, as
 * mpjrun places them): the real {@link PmiServer}, or with {@code agents} one real {@link NodeAgent} per node,
 * linked along mpjrun's tree over loopback sockets (decision 0036), each serving its node's ranks. The listener
 * only counts finalized ranks and keeps the first thing that went wrong.
 */
final class ServerRun implements AutoCloseable, NodeAgent.Events {
    /** Children per agent, mpjrun's default. */
    private static final int TREE_WIDTH = 16;

    private final PmiServer server;
    private final List<NodeAgent> agents = new ArrayList<>();
    private final CountDownLatch finalized;
    private final AtomicReference<String> problem = new AtomicReference<>();
    private final InetSocketAddress[] addressOfNode;

    ServerRun(int size, int nodes, String kvs, String secret, boolean withAgents) throws IOException {
        finalized = new CountDownLatch(size);
        ProcessMapping mapping = ProcessMapping.blocks(size, nodes);
        addressOfNode = new InetSocketAddress[nodes];
        Duration initTimeout = Duration.ofSeconds(Settings.fromEnvironment().initTimeoutSeconds());
        if (!withAgents) {
            server = new PmiServer(mapping, kvs, secret, initTimeout, this);
            Arrays.fill(addressOfNode, server.start());
            return;
        }
        server = null;
        try {
            NodeAgent root = NodeAgent.root(mapping, kvs, secret, TREE_WIDTH, initTimeout, this, new byte[0]);
            root.start();
            agents.add(root);
            for (int node = 1; node < nodes; node++) {
                NodeAgent parent = agents.get(TreeShape.parent(node, TREE_WIDTH));
                NodeAgent.Connected c = NodeAgent.connect(parent.childrenPort(), secret, node);
                NodeAgent agent = NodeAgent.below(c.link(), mapping, kvs, secret, node, TREE_WIDTH, initTimeout,
                        c.spec());
                agent.start();
                agents.add(agent);
            }
            for (int node = 0; node < nodes; node++) {
                addressOfNode[node] = address(agents.get(node).pmiPort());
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    /** Where the ranks of each node connect: the server, or the node's agent. */
    InetSocketAddress[] addressOfNode() {
        return addressOfNode.clone();
    }

    /**
     * Waits until every rank has finalized.
     *
     * @throws IOException when a rank broke the protocol, left early or aborted, or the wait passed {@code limit}
     */
    void awaitFinalized(Duration limit) throws IOException {
        long deadline = System.nanoTime() + limit.toNanos();
        try {
            while (!finalized.await(100, TimeUnit.MILLISECONDS)) {
                if (problem.get() != null) {
                    throw new IOException("the PMI server saw " + problem.get());
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException(finalized.getCount() + " ranks had not finalized within " + limit);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (problem.get() != null) {
            throw new IOException("the PMI server saw " + problem.get());
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        for (int i = agents.size() - 1; i >= 0; i--) {
            agents.get(i).close();
        }
    }

    @Override
    public void rankStarted(int rank, long pid) {
    }

    @Override
    public void rankExited(int rank, int status) {
    }

    @Override
    public void agentFailed(int node, String problemText) {
        problem.compareAndSet(null, "the agent of node " + node + ": " + problemText);
    }

    @Override
    public void rankConnected(int rank) {
    }

    @Override
    public void rankFinalized(int rank) {
        finalized.countDown();
    }

    @Override
    public void rankAborted(int rank, int exitCode) {
        problem.compareAndSet(null, "rank " + rank + " abort with exit code " + exitCode);
    }

    @Override
    public void rankDisconnected(int rank) {
        problem.compareAndSet(null, "rank " + rank + " disconnect before finalize");
    }

    @Override
    public void protocolError(int rank, String problemText) {
        problem.compareAndSet(null, "rank " + rank + " " + problemText);
    }

    @Override
    public void connectionsRejected(String report) {
        problem.compareAndSet(null, "rejected connections: " + report);
    }

    @Override
    public void serverFailed(Exception cause) {
        problem.compareAndSet(null, "its own failure: " + cause);
    }
}
