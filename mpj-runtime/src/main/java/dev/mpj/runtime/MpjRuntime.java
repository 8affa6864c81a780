package dev.mpj.runtime;

import dev.mpj.api.CommSpec;
import dev.mpj.api.Envelope;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import dev.mpj.api.Reduction;
import dev.mpj.runtime.coll.CollectiveTuning;
import dev.mpj.runtime.coll.Collectives;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.PmiClients;
import dev.mpj.runtime.pmi.PmiKvs;
import dev.mpj.runtime.spi.FrameSink;
import dev.mpj.runtime.spi.Transport;
import dev.mpj.runtime.spi.TransportContext;
import dev.mpj.runtime.spi.TransportProvider;
import mpi.MPIException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import java.util.function.BooleanSupplier;

/**
 * The runtime behind package {@code mpi}: bootstraps through PMI, exchanges transport addresses, and
 * routes point-to-point traffic through the {@link ProgressEngine}; collectives run over that
 * point-to-point layer ({@link Collectives}).
 */
public final class MpjRuntime implements MpiBackend {
    private static final String CARD_KEY = "mpj-card-";

    private Settings settings;
    private PmiClient pmi;
    private ProgressEngine engine;
    private Transport transport;
    private InitReport report;
    private NodeMap nodeMap;
    private Collectives collectives;
    private int rank;
    private int size;

    @Override
    public void init(String[] args) {
        InitReport r = new InitReport();
        try {
            settings = Settings.fromEnvironment();
            collectives = new Collectives(this, CollectiveTuning.from(settings));
            pmi = PmiClients.fromEnvironment(settings, System.getenv());
            rank = pmi.rank();
            size = pmi.size();
            r.phase("pmi");
            nodeMap = NodeMap.discover(pmi, settings);
            r.phase("nodemap");
            LauncherWatchdog.watch(System.getenv());
            engine = new ProgressEngine(rank, settings);
            if (size > 1) {
                transport = loadTransport("tcp");
                byte[] address = transport.start(new Context(rank, size, engine, settings));
                r.phase("listen");
                PmiKvs.putBytes(pmi, CARD_KEY + rank, address);
                pmi.barrier();
                r.phase("fence");
                for (int peer = 0; peer < size; peer++) {
                    if (peer != rank) {
                        byte[] card = PmiKvs.getBytes(pmi, CARD_KEY + peer);
                        if (card == null) {
                            throw new MPIException(MPIException.ERR_INTERN,
                                    "rank " + peer + " published no address card");
                        }
                        transport.addPeer(peer, card);
                    }
                }
                r.phase("exchange");
                Transport t = transport;
                engine.setRouter(t::send);
            } else {
                engine.setRouter((peer, h, p) -> {
                    throw new MPIException(MPIException.ERR_RANK, "no rank " + peer + " in a job of size 1");
                });
            }
            report = r;
            if (settings.verbose()) {
                System.err.println("mpj: rank " + rank + " of " + size + " on node " + nodeMap.nodeOf(rank) + " of "
                        + nodeMap.nodeCount() + " init " + r + " pmi(" + pmi.dialect() + ") " + pmi.counters());
            }
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException | IOException e) {
            throw new MPIException(MPIException.ERR_OTHER, "MPI.Init failed: " + e.getMessage(), e);
        }
    }

    private static Transport loadTransport(String name) {
        for (TransportProvider p : ServiceLoader.load(TransportProvider.class)) {
            if (p.name().equals(name)) {
                return p.create();
            }
        }
        throw new MPIException(MPIException.ERR_INTERN, "no '" + name + "' transport on the class path");
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public String processorName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        } catch (IOException | RuntimeException e) {
            try {
                return java.net.InetAddress.getLocalHost().getHostName();
            } catch (IOException e2) {
                return "localhost";
            }
        }
    }

    @Override
    public void finish() {
        // Everyone must be done with communication before connections close under them.
        pmi.barrier();
        if (transport != null) {
            transport.close();
        }
        pmi.finish();
        pmi.close();
    }

    @Override
    public void abort(int errorCode) {
        System.out.flush();
        System.err.flush();
        try {
            pmi.abort(errorCode, "MPI.Abort(" + errorCode + ") called by rank " + rank);
        } catch (RuntimeException ignored) {
            // The process manager may already be gone; exiting is what matters now.
        }
        Runtime.getRuntime().halt(errorCode);
    }

    @Override
    public Operation send(ByteBuffer data, int destWorldRank, int tag, int context, SendMode mode) {
        return engine.send(data, destWorldRank, tag, context, mode);
    }

    @Override
    public Operation receive(ByteBuffer room, int sourceWorldRank, int tag, int context) {
        return engine.receive(room, sourceWorldRank, tag, context);
    }

    @Override
    public Envelope probe(int sourceWorldRank, int tag, int context) {
        return engine.probe(sourceWorldRank, tag, context);
    }

    @Override
    public void await(BooleanSupplier done) {
        engine.await(done);
    }

    @Override
    public void poll() {
        engine.poll();
    }

    @Override
    public void barrier(CommSpec comm) {
        collectives.barrier(comm);
    }

    @Override
    public void bcast(CommSpec comm, ByteBuffer data, int root) {
        collectives.bcast(comm, data, root);
    }

    @Override
    public void gather(CommSpec comm, ByteBuffer send, ByteBuffer recv, int root) {
        collectives.gather(comm, send, recv, root);
    }

    @Override
    public void gatherv(CommSpec comm, ByteBuffer send, ByteBuffer[] recv, int root) {
        collectives.gatherv(comm, send, recv, root);
    }

    @Override
    public void scatter(CommSpec comm, ByteBuffer send, ByteBuffer recv, int root) {
        collectives.scatter(comm, send, recv, root);
    }

    @Override
    public void scatterv(CommSpec comm, ByteBuffer[] send, ByteBuffer recv, int root) {
        collectives.scatterv(comm, send, recv, root);
    }

    @Override
    public void allgather(CommSpec comm, ByteBuffer send, ByteBuffer recv) {
        collectives.allgather(comm, send, recv);
    }

    @Override
    public void allgatherv(CommSpec comm, ByteBuffer send, ByteBuffer[] recv) {
        collectives.allgatherv(comm, send, recv);
    }

    @Override
    public void alltoall(CommSpec comm, ByteBuffer send, ByteBuffer recv) {
        collectives.alltoall(comm, send, recv);
    }

    @Override
    public void alltoallv(CommSpec comm, ByteBuffer[] send, ByteBuffer[] recv) {
        collectives.alltoallv(comm, send, recv);
    }

    @Override
    public void reduce(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        collectives.reduce(comm, send, recv, op, root);
    }

    @Override
    public void allreduce(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op) {
        collectives.allreduce(comm, send, recv, op);
    }

    @Override
    public void reduceScatter(CommSpec comm, ByteBuffer send, ByteBuffer recv, int[] blockBytes, Reduction op) {
        collectives.reduceScatter(comm, send, recv, blockBytes, op);
    }

    @Override
    public void scan(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op) {
        collectives.scan(comm, send, recv, op);
    }

    /** PMI operations and phase timings of this rank's MPI.Init. */
    public InitReport initReport() {
        return report;
    }

    public PmiClient pmi() {
        return pmi;
    }

    /** Which ranks share a node, as found during MPI.Init. */
    public NodeMap nodeMap() {
        return nodeMap;
    }

    private record Context(int rank, int size, FrameSink sink, Settings settings) implements TransportContext {
    }
}
