package dev.mpj.runtime.config;

import dev.mpj.runtime.config.CollectiveAlgorithms.Allgather;
import dev.mpj.runtime.config.CollectiveAlgorithms.Allreduce;
import dev.mpj.runtime.config.CollectiveAlgorithms.Alltoall;
import dev.mpj.runtime.config.CollectiveAlgorithms.Bcast;
import dev.mpj.runtime.config.CollectiveAlgorithms.Hierarchical;
import dev.mpj.runtime.config.CollectiveAlgorithms.SharedMemory;

import java.util.EnumMap;
import java.util.Map;

/**
 * An immutable snapshot of every {@link Setting}, read once (system properties over the environment over the
 * defaults) and concluded once: each text parsed by its setting, the values checked against each other, and
 * kept typed. A bad value is an IllegalArgumentException naming its property.
 */
public final class Settings {
    /** The texts concluded, for {@link #with}. */
    private final Map<Setting, String> texts;

    private final int eagerThreshold;
    private final int rendezvousChunk;
    private final int eagerCredit;
    private final String tcpHost;
    private final TcpInterface tcpInterface;
    private final int tcpMaxFrame;
    private final int tcpIoThreads;
    private final TcpProgress tcpProgress;
    private final NettyLogging tcpNettyLog;
    private final PmiDialect pmi;
    private final int initTimeoutSeconds;
    private final int fakeNodes;
    private final boolean agents;
    private final int agentTreeWidth;
    private final AgentJvms agentJvms;
    private final SegmentDirectory segmentDirectory;
    private final int shmTransportBytes;
    private final TransportMode transports;
    private final WaitPolicy waitPolicy;
    private final ConnectionMode connections;
    private final int connectWindow;
    private final boolean connectionStats;
    private final boolean verbose;
    private final Bcast bcast;
    private final Allgather allgather;
    private final Allreduce allreduce;
    private final Alltoall alltoall;
    private final Hierarchical hierarchical;
    private final SharedMemory sharedMemoryCollectives;
    private final AddressExchangeMode addressExchange;
    private final boolean irregularCards;
    private final boolean initTimings;
    private final KillAfterPhase killAfterPhase;

    private Settings(Map<Setting, String> texts) {
        this.texts = texts;
        Map<Setting, Object> v = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            v.put(s, s.parse(texts.get(s)));
        }
        eagerThreshold = (Integer) v.get(Setting.EAGER_THRESHOLD);
        rendezvousChunk = (Integer) v.get(Setting.RENDEZVOUS_CHUNK);
        eagerCredit = (Integer) v.get(Setting.EAGER_CREDIT);
        tcpHost = (String) v.get(Setting.TCP_HOST);
        tcpInterface = (TcpInterface) v.get(Setting.TCP_INTERFACE);
        tcpMaxFrame = (Integer) v.get(Setting.TCP_MAX_FRAME);
        tcpIoThreads = (Integer) v.get(Setting.TCP_IO_THREADS);
        tcpProgress = (TcpProgress) v.get(Setting.TCP_PROGRESS);
        tcpNettyLog = (NettyLogging) v.get(Setting.TCP_NETTY_LOG);
        pmi = (PmiDialect) v.get(Setting.PMI);
        initTimeoutSeconds = (Integer) v.get(Setting.INIT_TIMEOUT);
        fakeNodes = (Integer) v.get(Setting.FAKE_NODES);
        agents = (Boolean) v.get(Setting.AGENTS);
        agentTreeWidth = (Integer) v.get(Setting.AGENT_TREE_WIDTH);
        agentJvms = (AgentJvms) v.get(Setting.AGENT_JVMS);
        segmentDirectory = (SegmentDirectory) v.get(Setting.SEGMENT_DIR);
        shmTransportBytes = (Integer) v.get(Setting.SHM_TRANSPORT_BYTES);
        transports = (TransportMode) v.get(Setting.TRANSPORTS);
        waitPolicy = (WaitPolicy) v.get(Setting.WAIT_POLICY);
        connections = (ConnectionMode) v.get(Setting.CONNECTIONS);
        connectWindow = (Integer) v.get(Setting.CONNECT_WINDOW);
        bcast = (Bcast) v.get(Setting.COLL_BCAST);
        allgather = (Allgather) v.get(Setting.COLL_ALLGATHER);
        allreduce = (Allreduce) v.get(Setting.COLL_ALLREDUCE);
        alltoall = (Alltoall) v.get(Setting.COLL_ALLTOALL);
        hierarchical = (Hierarchical) v.get(Setting.COLL_HIERARCHICAL);
        sharedMemoryCollectives = (SharedMemory) v.get(Setting.COLL_SHARED_MEMORY);
        addressExchange = (AddressExchangeMode) v.get(Setting.ADDRESS_EXCHANGE);
        irregularCards = (Boolean) v.get(Setting.IRREGULAR_CARDS);
        killAfterPhase = (KillAfterPhase) v.get(Setting.TEST_KILL_AFTER_PHASE);
        verbose = (Boolean) v.get(Setting.VERBOSE);
        initTimings = (Boolean) v.get(Setting.INIT_TIMINGS) || verbose;
        connectionStats = (Boolean) v.get(Setting.CONNECTION_STATS) || initTimings;
        int needed = Math.max(eagerThreshold, rendezvousChunk) + 64;
        if (tcpMaxFrame < needed) {
            throw new IllegalArgumentException(Setting.TCP_MAX_FRAME.property() + " (" + tcpMaxFrame
                    + ") must hold the larger of the eager threshold and the rendezvous chunk plus headers ("
                    + needed + ")");
        }
    }

    /** Reads system properties, then the environment, then the defaults. */
    public static Settings fromEnvironment() {
        return from(System.getenv(), System.getProperties());
    }

    /** A system property in {@code properties} wins over its variable in {@code environment}. */
    public static Settings from(Map<String, String> environment, Map<Object, Object> properties) {
        Map<Setting, String> texts = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            Object p = properties.get(s.property());
            String e = environment.get(s.environmentVariable());
            texts.put(s, p != null ? p.toString().trim() : e != null ? e.trim() : s.defaultValue());
        }
        return new Settings(texts);
    }

    public static Settings defaults() {
        return from(Map.of(), Map.of());
    }

    /** A copy with one setting changed, concluded as a whole again. */
    public Settings with(Setting setting, String value) {
        Map<Setting, String> copy = new EnumMap<>(texts);
        copy.put(setting, value.trim());
        return new Settings(copy);
    }

    /** Messages up to this many bytes go eagerly; larger ones use rendezvous. */
    public int eagerThreshold() {
        return eagerThreshold;
    }

    /** Bytes per data frame of a rendezvous transfer. */
    public int rendezvousChunk() {
        return rendezvousChunk;
    }

    /**
     * Eager payload bytes a rank may have sent to one peer that the peer has not yet reported received; a
     * message beyond it goes by rendezvous, so a receiver holds at most this much unexpected eager data per peer.
     */
    public int eagerCredit() {
        return eagerCredit;
    }

    /** The address the TCP listener binds and advertises, as given: {@code auto} unless set. */
    public String tcpHost() {
        return tcpHost;
    }

    /** Whether {@link #tcpHost()} is left for the runtime to choose. */
    public boolean tcpHostIsAuto() {
        return tcpHost.equalsIgnoreCase("auto");
    }

    /** Which interface's address TCP uses when the runtime chooses it. */
    public TcpInterface tcpInterface() {
        return tcpInterface;
    }

    /** The largest TCP frame accepted. */
    public int tcpMaxFrame() {
        return tcpMaxFrame;
    }

    /** Netty event-loop threads per process, with {@link TcpProgress#THREADS}. */
    public int tcpIoThreads() {
        return tcpIoThreads;
    }

    public TcpProgress tcpProgress() {
        return tcpProgress;
    }

    public NettyLogging tcpNettyLog() {
        return tcpNettyLog;
    }

    public PmiDialect pmi() {
        return pmi;
    }

    /** Seconds a rank waits for its process manager or its peers during {@code MPI.Init}. */
    public int initTimeoutSeconds() {
        return initTimeoutSeconds;
    }

    /** Pretend nodes to split the job into; 0 when the real node map is used. */
    public int fakeNodes() {
        return fakeNodes;
    }

    /** Whether mpjrun starts a node agent per fake node (decision 0036). */
    public boolean agents() {
        return agents;
    }

    /** Children per node agent in mpjrun's launch tree. */
    public int agentTreeWidth() {
        return agentTreeWidth;
    }

    /** Whether the node agents below mpjrun share one JVM or have one each (decision 0068). */
    public AgentJvms agentJvms() {
        return agentJvms;
    }

    public SegmentDirectory segmentDirectory() {
        return segmentDirectory;
    }

    /** Bytes of each node segment reserved for the shared-memory transport. */
    public int shmTransportBytes() {
        return shmTransportBytes;
    }

    /** Which transports carry point-to-point traffic. */
    public TransportMode transports() {
        return transports;
    }

    /** The wait policy asked for (maybe {@link WaitPolicy#AUTO}). */
    public WaitPolicy waitPolicy() {
        return waitPolicy;
    }

    /** When TCP connections open (maybe {@link ConnectionMode#AUTO}). */
    public ConnectionMode connections() {
        return connections;
    }

    /** Eager connections: connects one rank keeps in flight at once. */
    public int connectWindow() {
        return connectWindow;
    }

    public Bcast bcastAlgorithm() {
        return bcast;
    }

    public Allgather allgatherAlgorithm() {
        return allgather;
    }

    public Allreduce allreduceAlgorithm() {
        return allreduce;
    }

    public Alltoall alltoallAlgorithm() {
        return alltoall;
    }

    public Hierarchical hierarchicalCollectives() {
        return hierarchical;
    }

    public SharedMemory sharedMemoryCollectives() {
        return sharedMemoryCollectives;
    }

    /** The address-exchange strategy asked for. */
    public AddressExchangeMode addressExchange() {
        return addressExchange;
    }

    public boolean verbose() {
        return verbose;
    }

    /** Whether ranks agree on the longest business card before exchanging them. */
    public boolean irregularCards() {
        return irregularCards;
    }

    /** Whether every rank prints its MPI.Init phases (also implied by {@link #verbose()}). */
    public boolean initTimings() {
        return initTimings;
    }

    /** Whether every rank prints its connection counts at {@code MPI.Finalize} (also implied by {@link #initTimings()}). */
    public boolean connectionStats() {
        return connectionStats;
    }

    /** The rank that kills itself after an init phase, for tests of crash clean-up; null when none. */
    public KillAfterPhase killAfterPhase() {
        return killAfterPhase;
    }
}
