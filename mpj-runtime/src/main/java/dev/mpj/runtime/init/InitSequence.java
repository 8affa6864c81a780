package dev.mpj.runtime.init;

import dev.mpj.runtime.config.ConnectionMode;
import dev.mpj.runtime.config.KillAfterPhase;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.TransportMode;
import dev.mpj.runtime.bootstrap.AddressExchange;
import dev.mpj.runtime.bootstrap.AddressExchanges;
import dev.mpj.runtime.bootstrap.BusinessCard;
import dev.mpj.runtime.bootstrap.CardLengthAgreement;
import dev.mpj.runtime.bootstrap.EngineMessenger;
import dev.mpj.runtime.bootstrap.ExchangeContext;
import dev.mpj.runtime.spi.InitLinkTransport;
import dev.mpj.runtime.spi.InitMessenger;
import dev.mpj.runtime.bootstrap.PeerDirectory;
import dev.mpj.runtime.connect.EagerConnections;
import dev.mpj.runtime.connect.EagerReport;
import dev.mpj.runtime.spi.PeerConnector;
import dev.mpj.runtime.spi.PlatformSelectorProvider;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.HostIdentityExchange;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.node.NodeSegmentFiles;
import dev.mpj.runtime.node.ProcessId;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.PmiClients;
import dev.mpj.runtime.spi.NodeRoom;
import dev.mpj.runtime.spi.Transport;
import mpi.MPIException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * {@code MPI.Init}, one method per step, in the order of the locality-aware bootstrap:
 * {@link #pmi} → {@link #nodeMap} → {@link #listen} → {@link #card} → {@link #attachSegment} →
 * {@link #startExchange} → {@link #engine} → {@link #mapSegment} → {@link #preload} → {@link #exchange} →
 * {@link #routePeers} → {@link #connect}. {@link #startExchange} makes the exchange's puts and enters its PMI
 * fence without waiting (a non-blocking fence, paper [2]'s {@code Ifence}); the local steps after it run while
 * the slower ranks arrive, and {@link #exchange} ends the fence. Each step ends its phase of the
 * {@link InitReport}; the result is the {@link World} of this rank. A job of one rank stops after the node map:
 * no transport, no segment, no exchange.
 *
 * <p>One sequence per process and call; not thread-safe.
 */
public final class InitSequence {
    private final Settings settings;
    private final Map<String, String> env;
    private final InitReport report;

    private PmiClient pmi;
    private int rank;
    private int size;
    private NodeMap nodeMap;
    private ProgressEngine engine;
    private TransportMode transports;
    private boolean useShm;
    private TransportRouter router;
    private AddressExchange exchange;
    private Transport tcp;
    private Transport shm;
    private InitMessenger messenger;
    private ExchangeContext exchangeContext;
    private byte[] address = new byte[0];
    /** Whether the job's nodes may be different hosts, so loopback cannot join them (the same in every rank). */
    private boolean spansHosts;
    private boolean loopbackTcp;
    private byte[] card;
    private ExchangeContext.SegmentSource segmentSource;
    private NodeSegment segment;
    /** Whether {@link #startShm} ran, and what it gave: the transport, or null when auto mode fell back to TCP. */
    private boolean shmStartTried;
    private Transport startedShm;
    private ConnectionMode connectionMode = ConnectionMode.ONDEMAND;
    private EagerReport eagerReport;

    /** Followed by the rank: host names exchanged to check a loopback address. */
    private static final String HOST_CHECK_KEY_PREFIX = "mpj-hostcheck-";

    private InitSequence(Settings settings, Map<String, String> env, InitReport report) {
        this.settings = settings;
        this.env = env;
        this.report = report;
    }

    /**
     * Runs {@code MPI.Init} for this process under the init watchdog ({@code mpj.initTimeout}): the watchdog's
     * thread starts first, so that it readies the PMI connection's network start-up while this thread reads the
     * settings ({@link Settings#fromEnvironment()}); the world holds them.
     *
     * @param env the process environment, where the process manager says how to reach it
     */
    public static World run(Map<String, String> env, InitReport report) throws IOException {
        PlatformSelectorProvider.name(); // before the first channel: the TCP listener, Netty
        InitWatchdog watchdog = InitWatchdog.start(report, env);
        try {
            Settings settings = Settings.fromEnvironment();
            watchdog.arm(settings);
            return new InitSequence(settings, env, report).steps(watchdog);
        } finally {
            watchdog.disarm();
        }
    }

    private World steps(InitWatchdog watchdog) throws IOException {
        pmi();
        watchdog.rank(rank);
        nodeMap();
        if (size == 1) {
            return alone();
        }
        try {
            listen();
            card();
            attachSegment(watchdog);
            startExchange();
            // the fence is pending: local work only, no PMI request until exchange() ends it
            engine();
            mapSegment();
            preload();
            exchange();
        } finally {
            closeMessenger();
        }
        routePeers();
        connect();
        report.describeJob(exchange.name(), nodeMap.nodeCount());
        return world();
    }

    /** pmi: the client the environment asks for ({@code PMI_FD}, {@code PMI_PORT}, Slurm's, or none); rank, size. */
    private void pmi() {
        pmi = PmiClients.fromEnvironment(settings, env);
        report.countFrom(pmi.counters());
        rank = pmi.rank();
        size = pmi.size();
        armKillHook();
        report.phase("pmi");
    }

    /**
     * nodeMap: which ranks share a node (fake nodes, {@code PMI_process_mapping}, or host names exchanged); the
     * lowest rank of each node is its root.
     */
    private void nodeMap() {
        nodeMap = NodeMap.discover(pmi, settings);
        report.phase("nodemap");
    }

    private ProgressEngine newEngine() {
        return new ProgressEngine(rank, settings);
    }

    private World alone() {
        engine = newEngine();
        engine.setRouter(new NoPeers());
        return new World(rank, size, settings, pmi, nodeMap, null, engine, null, null, "none", connectionMode,
                null, report);
    }

    /**
     * listen: the TCP listener, when some peer is on another node (or {@code mpj.transports=tcp}): its address goes
     * on the card, so it opens before the fence, and with it the progress engine that takes its frames. The
     * address exchange is chosen now because it decides whether this rank needs init links.
     */
    private void listen() throws IOException {
        transports = settings.transports();
        useShm = TransportRouter.wantsShm(transports, nodeMap, rank);
        exchange = AddressExchanges.choose(settings.addressExchange(), size, nodeMap.nodeCount());
        // mpjrun runs a job on one host, whatever pretend nodes it makes
        spansHosts = nodeMap.nodeCount() > 1 && settings.fakeNodes() == 0
                && !env.containsKey(LauncherWatchdog.LAUNCHER_PID);
        if (TransportRouter.wantsTcp(transports, nodeMap, rank)) {
            engine = newEngine();
            tcp = TransportLoader.load("tcp");
            String host = TcpHostChoice.choose(settings, spansHosts, TcpHostChoice.SYSTEM);
            loopbackTcp = TcpHostChoice.isLoopback(host);
            address = tcp.start(new StartContext(rank, size, engine, settings, host, null,
                    exchange.messagesPeers(nodeMap, rank)));
        }
        report.phase("listen");
    }

    /** card: this rank's business card: node, whether it is the node root, and its TCP address (if any). */
    private void card() {
        int flags = (nodeMap.isRoot(rank) ? BusinessCard.FLAG_NODE_ROOT : 0)
                | (loopbackTcp ? BusinessCard.FLAG_LOOPBACK_TCP : 0);
        card = new BusinessCard(nodeMap.nodeOf(rank), flags, address).encode();
        report.phase("card");
    }

    /**
     * attachSegment: whether this rank creates the node's segment (the node root) or maps it. The mapping runs
     * while the exchange's fence is pending ({@link #mapSegment}); with {@code mpj.irregularCards} it runs in
     * {@link #exchange}, with slots that hold any card, and the job agrees on the longest card before exchanging.
     */
    private void attachSegment(InitWatchdog watchdog) {
        int node = nodeMap.nodeOf(rank);
        boolean creator = nodeMap.isRoot(rank);
        Path file = NodeSegmentFiles.path(NodeSegmentFiles.directory(settings), pmi.jobId(), node);
        watchdog.removeOnExpiry(file);
        // shared memory needs no room when it will not be used (the file stays small and sparse anyway)
        int transportBytes = useShm ? settings.shmTransportBytes() : 0;
        segmentSource = new SegmentAttach(creator, file, node, nodeMap.localSize(node), size, transportBytes,
                Duration.ofSeconds(settings.initTimeoutSeconds()));
    }

    /**
     * startExchange: the exchange's puts and the entry into its PMI fence, without waiting for it. With
     * {@code mpj.irregularCards} nothing starts: the card-length agreement's own fence must come first.
     */
    private void startExchange() {
        exchangeContext = new ExchangeContext(pmi, nodeMap, card, segmentSource, new CurrentMessenger(),
                new TcpPeers(tcp), report);
        if (!settings.irregularCards()) {
            exchange.start(exchangeContext);
        }
    }

    /**
     * engine: the progress engine (unless the listener needed it earlier) and its router, every peer on TCP at
     * first so that the node roots can message each other during the exchange; while the fence is pending.
     */
    private void engine() {
        if (engine == null) {
            engine = newEngine();
        }
        router = new TransportRouter(rank, size);
        if (tcp != null) {
            for (int peer = 0; peer < size; peer++) {
                if (peer != rank) {
                    router.route(peer, tcp);
                }
            }
        }
        engine.setRouter(router);
        InitMessenger links = tcp instanceof InitLinkTransport t ? t.initLinks() : null;
        messenger = links != null ? links : new EngineMessenger(engine);
        report.phase("engine");
    }

    /** mapSegment: the node segment created or mapped, and this rank's card in its slot; while the fence is pending. */
    private void mapSegment() {
        if (!settings.irregularCards()) {
            segment = exchangeContext.attachSegment();
        }
    }

    /**
     * preload: the shared-memory transport loaded and, when the segment is already mapped, started on its room
     * while the fence is pending: it needs the segment and the node map, not the exchange's cards, so the ranks
     * that wait for the slowest do it in that wait rather than all after it.
     */
    private void preload() throws IOException {
        if (useShm) {
            shm = TransportLoader.load("shm");
            if (segment != null) {
                startShm();
            }
        }
        report.phase("preload");
    }

    /**
     * exchange: ends the fence, then every rank's card into the node table, by the chosen strategy
     * ({@code mpj.addressExchange}). Every local rank has mapped the segment when it ends (a node barrier), so the
     * root unlinks its file: a crash of the whole node then leaves nothing behind, under any launcher.
     */
    private void exchange() {
        ExchangeContext x = exchangeContext;
        if (settings.irregularCards()) {
            x.attachForIrregularCards();
            report.phase("segment");
            CardLengthAgreement.run(x);
            report.phase("cardlength");
            exchange.run(x);
        } else {
            exchange.finish(x);
        }
        segment = x.segment();
        closeMessenger();
        report.phase("exchange");
        if (segment.isCreator()) {
            segment.unlink();
        }
    }

    /**
     * routePeers: ranks of this node through shared memory (unless {@code mpj.transports=tcp}), the others
     * through TCP at the address on their card.
     */
    private void routePeers() throws IOException {
        checkLoopbackAcrossHosts();
        Transport local = useShm ? startShm() : null; // started already, unless the segment came after the fence
        for (int peer = 0; peer < size; peer++) {
            if (peer == rank) {
                continue;
            }
            if (local != null && TransportRouter.viaShm(transports, nodeMap, rank, peer)) {
                router.route(peer, local);
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
        report.phase("connections");
    }

    /**
     * A job across hosts in which a rank advertises a loopback address cannot connect: it fails here, naming the
     * settings, rather than at a first message that never arrives. Every rank reads the same cards, so all take
     * the same branch, and only then are host names exchanged (ranks of emulated nodes share one host, where
     * loopback works).
     */
    private void checkLoopbackAcrossHosts() {
        if (!spansHosts || tcp == null) {
            return;
        }
        int loopbackRank = -1;
        for (int peer = 0; peer < size && loopbackRank < 0; peer++) {
            byte[] peerCard = segment.card(peer);
            if (peerCard != null && BusinessCard.decode(peerCard).hasFlag(BusinessCard.FLAG_LOOPBACK_TCP)) {
                loopbackRank = peer;
            }
        }
        if (loopbackRank < 0) {
            return;
        }
        String[] hosts = HostIdentityExchange.identities(pmi, HOST_CHECK_KEY_PREFIX,
                HostIdentityExchange.localHostIdentity());
        for (int peer = 0; peer < size; peer++) {
            if (!hosts[peer].equals(hosts[loopbackRank])) {
                throw new IllegalStateException("rank " + loopbackRank + " on host " + hosts[loopbackRank]
                        + " advertises a loopback TCP address, which rank " + peer + " on host " + hosts[peer]
                        + " cannot reach; set " + Setting.TCP_INTERFACE.property() + " (" 
                        + Setting.TCP_INTERFACE.environmentVariable() + ") to the interface or CIDR block that"
                        + " joins the hosts, and leave " + Setting.TCP_HOST.property() + " unset");
            }
        }
    }

    /** Shared memory on the node segment, started once; in {@code auto} mode a failure falls back to TCP (null). */
    private Transport startShm() throws IOException {
        if (!shmStartTried) {
            shmStartTried = true;
            startedShm = shmOrFallback();
        }
        return startedShm;
    }

    private Transport shmOrFallback() throws IOException {
        try {
            shm.start(new StartContext(rank, size, engine, settings, null, nodeRoom(), false));
            return shm;
        } catch (IOException | RuntimeException e) {
            if (transports == TransportMode.SHM || tcp == null) {
                throw e;
            }
            System.err.println("mpj: rank " + rank + ": shared memory unavailable (" + e.getMessage()
                    + "); using TCP within the node");
            return null;
        }
    }

    private NodeRoom nodeRoom() {
        int node = nodeMap.nodeOf(rank);
        return new NodeRoom(node, nodeMap.ranksOn(node), size, segment.transportRegion(), ProcessId.current());
    }

    /** connect ({@code mpj.connections}): in eager mode every TCP pair connects now; on demand, at its first message. */
    private void connect() throws IOException {
        connectionMode = settings.connections().resolve(size);
        if (connectionMode != ConnectionMode.EAGER || !(tcp instanceof PeerConnector connector)) {
            return;
        }
        try {
            eagerReport = EagerConnections.forJob(connector, rank, size, new ViaTcp(router, tcp), settings,
                    new PmiBarrier(pmi));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting eagerly", e);
        }
        report.phase("eager");
    }

    private World world() {
        return new World(rank, size, settings, pmi, nodeMap, segment, engine, router, tcp, exchange.name(),
                connectionMode, eagerReport, report);
    }

    private void closeMessenger() {
        if (messenger != null) {
            InitMessenger m = messenger;
            messenger = null;
            m.close();
        }
    }

    private void armKillHook() {
        KillAfterPhase kill = settings.killAfterPhase();
        if (kill != null && kill.rank() == rank) {
            report.killAfter(kill.phase());
        }
    }

    // Small classes rather than lambdas: no lambda bootstrap on the init path.

    /** The segment attachment decided in {@link #attachSegment}: create (the node root) or map. */
    private record SegmentAttach(boolean creator, Path file, int node, int localSize, int jobSize,
                                 int transportBytes, Duration timeout) implements ExchangeContext.SegmentSource {
        @Override
        public NodeSegment attach(int cardCapacity) {
            return creator
                    ? NodeSegment.create(file, node, localSize, jobSize, cardCapacity, transportBytes, timeout)
                    : NodeSegment.open(file, node, localSize, jobSize, timeout);
        }
    }

    /** The exchange's messenger, which {@link #engine} makes after the exchange context exists. */
    private final class CurrentMessenger implements InitMessenger {
        @Override
        public void sendReceive(ByteBuffer out, int dest, ByteBuffer in, int source, int tag) {
            messenger.sendReceive(out, dest, in, source, tag);
        }
    }

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

    private record PmiBarrier(PmiClient pmi) implements Runnable {
        @Override
        public void run() {
            pmi.barrier();
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
}
