package dev.mpj.runtime;

import dev.mpj.api.CommSpec;
import dev.mpj.api.Envelope;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import dev.mpj.api.Reduction;
import dev.mpj.runtime.coll.CollectiveTuning;
import dev.mpj.runtime.coll.Collectives;
import dev.mpj.runtime.config.ConnectionMode;
import dev.mpj.runtime.config.KillAfterPhase;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.TransportMode;
import dev.mpj.runtime.config.WaitPolicy;
import dev.mpj.runtime.connect.ConnectionStats;
import dev.mpj.runtime.connect.EagerConnections;
import dev.mpj.runtime.connect.EagerReport;
import dev.mpj.runtime.connect.PeerConnector;
import dev.mpj.runtime.bootstrap.AddressExchange;
import dev.mpj.runtime.bootstrap.AddressExchanges;
import dev.mpj.runtime.bootstrap.BusinessCard;
import dev.mpj.runtime.bootstrap.CardLengthAgreement;
import dev.mpj.runtime.bootstrap.EngineMessenger;
import dev.mpj.runtime.bootstrap.InitLinkTransport;
import dev.mpj.runtime.bootstrap.InitMessenger;
import dev.mpj.runtime.bootstrap.ExchangeContext;
import dev.mpj.runtime.bootstrap.PeerDirectory;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.engine.RankWaitPolicy;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.PmiClients;
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
import java.util.function.IntPredicate;

/**
 * The runtime behind package {@code mpi}: bootstraps through PMI (node map, node segment, business cards, one of
 * the {@link AddressExchange address exchanges}), routes point-to-point traffic through the
 * {@link ProgressEngine}, and runs collectives over it ({@link Collectives}). {@link #current()} gives the
 * runtime of this process, e.g. for its {@link #initReport() init report}.
 */
public final class MpjRuntime implements MpiBackend {
    private static volatile MpjRuntime current;

    private Settings settings;
    private PmiClient pmi;
    private ProgressEngine engine;
    private TransportRouter router;
    private Transport tcp;
    private InitReport report;
    private NodeMap nodeMap;
    private Collectives collectives;
    private NodeSegment segment;
    private int rank;
    private int size;
    private ConnectionMode connectionMode = ConnectionMode.ONDEMAND;
    private EagerReport eagerReport;

    @Override
    public void init(String[] args) {
        InitReport r = new InitReport();
        InitWatchdog watchdog = null;
        try {
            settings = Settings.fromEnvironment();
            watchdog = InitWatchdog.arm(settings, r);
            CollectiveTuning tuning = CollectiveTuning.from(settings);
            pmi = PmiClients.fromEnvironment(settings, System.getenv());
            r.countFrom(pmi.counters());
            rank = pmi.rank();
            size = pmi.size();
            watchdog.rank(rank);
            armKillHook(r);
            r.phase("pmi");
            nodeMap = NodeMap.discover(pmi, settings);
            collectives = new Collectives(this, tuning, nodeMap);
            r.phase("nodemap");
            LauncherWatchdog.watch(System.getenv());
            engine = new ProgressEngine(rank, settings, RankWaitPolicy.forRank(settings, nodeMap, rank));
            if (size > 1) {
                connect(r);
            } else {
                engine.setRouter(new NoPeers());
            }
            report = r;
            current = this;
            if (settings.initTimings()) {
                System.err.println("mpj: rank " + rank + " of " + size + " on node " + nodeMap.nodeOf(rank) + " of "
                        + nodeMap.nodeCount() + " exchange " + r.exchange() + " init " + r + " pmi(" + pmi.dialect()
                        + ") " + pmi.counters());
            }
        } catch (MPIException e) {
            throw e;
        } catch (RuntimeException | IOException e) {
            throw new MPIException(MPIException.ERR_OTHER, "MPI.Init failed: " + e.getMessage(), e);
        } finally {
            if (watchdog != null) {
                watchdog.disarm();
            }
        }
    }

    /**
     * The multi-rank part of init: listener, business card, node segment, address exchange, then every peer
     * made reachable: ranks of this node through shared memory (unless {@code mpj.transports=tcp}), the others
     * through TCP with the addresses from the node table.
     */
    private void connect(InitReport r) throws IOException {
        TransportMode mode = settings.transports();
        boolean useShm = TransportRouter.wantsShm(mode, nodeMap, rank);
        boolean useTcp = TransportRouter.wantsTcp(mode, nodeMap, rank);
        // Shared memory needs no room when it will not be used (the file stays small and sparse anyway).
        Settings segmentSettings = useShm ? settings : settings.with(Setting.SHM_TRANSPORT_BYTES, "0");
        router = new TransportRouter(rank, size);
        AddressExchange exchange = AddressExchanges.choose(settings.addressExchange(), size, nodeMap.nodeCount());
        boolean initLinks = exchange.messagesPeers(nodeMap, rank);
        byte[] address = new byte[0];
        if (useTcp) {
            tcp = loadTransport("tcp");
            address = tcp.start(new Context(rank, size, engine, settings, nodeMap, null, initLinks));
            for (int peer = 0; peer < size; peer++) {
                if (peer != rank) {
                    router.route(peer, tcp); // node roots talk over TCP during the exchange
                }
            }
        }
        engine.setRouter(router);
        r.phase("listen");
        int node = nodeMap.nodeOf(rank);
        byte[] card = new BusinessCard(node, nodeMap.isRoot(rank) ? BusinessCard.FLAG_NODE_ROOT : 0, address)
                .encode();
        r.phase("card");
        InitMessenger links = tcp instanceof InitLinkTransport t ? t.initLinks() : null;
        try (InitMessenger messenger = links != null ? links : new EngineMessenger(engine)) {
            ExchangeContext x = new ExchangeContext(pmi, nodeMap, card,
                    new SegmentAttacher(nodeMap, rank, pmi.jobId(), segmentSettings), messenger, new TcpPeers(tcp), r);
            if (settings.irregularCards()) {
                x.attachForIrregularCards();
                r.phase("segment");
                CardLengthAgreement.run(x);
                r.phase("cardlength");
            }
            exchange.run(x);
            segment = x.segment();
        }
        r.phase("exchange");
        if (segment.isCreator()) {
            // Every local rank has mapped it (the exchange ended with a node barrier): the name is no longer
            // needed, and without it a crash of the whole node's ranks, under any launcher, leaves no file behind.
            segment.unlink();
        }
        Transport shm = useShm ? startShm(mode) : null;
        for (int peer = 0; peer < size; peer++) {
            if (peer == rank) {
                continue;
            }
            if (shm != null && TransportRouter.viaShm(mode, nodeMap, rank, peer)) {
                router.route(peer, shm);
            } else if (tcp != null) {
                byte[] peerCard = segment.card(peer);
                if (peerCard == null) {
                    throw new MPIException(MPIException.ERR_INTERN, "the node table has no card of rank " + peer
                            + " after the " + exchange.name() + " exchange");
                }
                tcp.addPeer(peer, BusinessCard.decode(peerCard).address());
            } else {
                throw new MPIException(MPIException.ERR_INTERN, "no transport can reach rank " + peer
                        + " (mpj.transports=" + settings.transports().settingValue() + ")");
            }
        }
        engine.setRouter(router); // again: a polled transport changes how the engine idles
        r.phase("connections");
        openConnections(r);
        r.describeJob(exchange.name(), nodeMap.nodeCount());
    }

    /** mpj.connections: in eager mode every TCP pair connects now; on demand, at its first message. */
    private void openConnections(InitReport r) throws IOException {
        connectionMode = settings.connections().resolve(size);
        if (connectionMode != ConnectionMode.EAGER || !(tcp instanceof PeerConnector connector)) {
            return;
        }
        try {
            eagerReport = EagerConnections.forJob(connector, rank, size, new ViaTcp(router, tcp), settings,
                    pmi::barrier);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting eagerly", e);
        }
        r.phase("eager");
    }

    /** Starts shared memory on the node segment; in {@code auto} mode a failure falls back to TCP. */
    private Transport startShm(TransportMode mode) throws IOException {
        Transport shm = loadTransport("shm");
        try {
            shm.start(new Context(rank, size, engine, settings, nodeMap, segment, false));
            return shm;
        } catch (IOException | RuntimeException e) {
            if (mode == TransportMode.SHM || tcp == null) {
                throw e;
            }
            System.err.println("mpj: rank " + rank + ": shared memory unavailable (" + e.getMessage()
                    + "); using TCP within the node");
            return null;
        }
    }

    private void armKillHook(InitReport r) {
        KillAfterPhase kill = settings.killAfterPhase();
        if (kill != null && kill.rank() == rank) {
            r.killAfter(kill.phase());
        }
    }

    /**
     * The transport {@code name}: its provider by its known class name first (a service lookup opens every jar of
     * the class path, tens of milliseconds of a cold JVM's init), else the one registered with ServiceLoader.
     */
    private static Transport loadTransport(String name) {
        String known = "shm".equals(name) ? "dev.mpj.transport.shm.ShmTransportProvider"
                : "dev.mpj.transport.tcp.TcpTransportProvider";
        try {
            TransportProvider p = (TransportProvider) Class.forName(known).getConstructor().newInstance();
            if (p.name().equals(name)) {
                return p.create();
            }
        } catch (ReflectiveOperationException | ClassCastException e) {
            // not on the class path under that name: look for it as a service
        }
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
        if (settings.connectionStats()) {
            System.err.println("mpj: rank " + rank + " " + connectionMode.settingValue() + " " + connectionStats()
                    + (eagerReport == null ? "" : "; " + eagerReport));
        }
        // Everyone must be done with communication before connections close under them.
        pmi.barrier();
        if (router != null) {
            router.close(); // shared memory marks this rank's liveness slot closed: peers see an orderly exit
        }
        if (segment != null) {
            // the last rank of the node to close removes the file
            segment.barrier();
            segment.close();
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

    /**
     * This rank's TCP connections so far: opened (initiated, accepted), attempts superseded in simultaneous
     * connects, and the distinct peers it exchanged frames with over TCP.
     */
    public ConnectionStats connectionStats() {
        return tcp instanceof PeerConnector connector ? connector.connectionStats() : ConnectionStats.NONE;
    }

    /** The connection mode in effect ({@code mpj.connections} resolved for this job). */
    public ConnectionMode connectionMode() {
        return connectionMode;
    }

    /** How the eager phase of MPI.Init went (per-round connect times), or null when it did not run. */
    public EagerReport eagerReport() {
        return eagerReport;
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

    /** The runtime of this process once {@code MPI.Init} has succeeded, else null. */
    public static MpjRuntime current() {
        return current;
    }

    /** This rank's node segment (its card table holds every rank's card after init); null in a job of one. */
    public NodeSegment nodeSegment() {
        return segment;
    }

    private record Context(int rank, int size, ProgressEngine engine, Settings settings, NodeMap nodeMap,
                           NodeSegment nodeSegment, boolean initLinks) implements TransportContext {
        @Override
        public FrameSink sink() {
            return engine;
        }

        @Override
        public WaitPolicy waitPolicy() {
            return engine.waitPolicy();
        }
    }

    // Small classes rather than lambdas: no lambda bootstrap on the init path.

    private static final class NoPeers implements ProgressEngine.FrameRouter {
        @Override
        public void send(int peer, ByteBuffer header, ByteBuffer payload) {
            throw new MPIException(MPIException.ERR_RANK, "no rank " + peer + " in a job of size 1");
        }
    }

    private record ViaTcp(TransportRouter router, Transport tcp) implements IntPredicate {
        @Override
        public boolean test(int peer) {
            return router.transportOf(peer) == tcp;
        }
    }

    private record TcpPeers(Transport tcp) implements PeerDirectory {
        @Override
        public void addPeer(int peer, byte[] card) {
            if (tcp == null) {
                throw new MPIException(MPIException.ERR_INTERN, "the exchange needs TCP to rank " + peer
                        + " but no TCP transport runs (mpj.transports=shm on a single node?)");
            }
            tcp.addPeer(peer, BusinessCard.decode(card).address());
        }
    }

    private record SegmentAttacher(NodeMap map, int rank, String jobId, Settings settings)
            implements ExchangeContext.SegmentSource {
        @Override
        public NodeSegment attach(int cardCapacity) {
            return NodeSegment.attach(map, rank, jobId, settings, cardCapacity);
        }
    }
}
