package dev.mpj.samples.bench.pmiscale;

import dev.mpj.launcher.pmi.PmiServer;
import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * mpjrun's PMI server for one simulated job of {@code size} ranks on {@code nodes} nodes (rank blocks, as
 * mpjrun places them): the real {@link PmiServer}, whose listener only counts finalized ranks and keeps the first
 * thing that went wrong.
 */
final class ServerRun implements AutoCloseable, PmiServer.Listener {
    private final PmiServer server;
    private final CountDownLatch finalized;
    private final AtomicReference<String> problem = new AtomicReference<>();
    private final InetSocketAddress address;

    ServerRun(int size, int nodes, String kvs, String secret) throws IOException {
        finalized = new CountDownLatch(size);
        server = new PmiServer(ProcessMapping.blocks(size, nodes), kvs, secret, this);
        address = server.start();
    }

    InetSocketAddress address() {
        return address;
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
        server.close();
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
