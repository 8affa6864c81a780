package dev.mpj.runtime.config;

import dev.mpj.runtime.config.CollectiveAlgorithms.Allgather;
import dev.mpj.runtime.config.CollectiveAlgorithms.Allreduce;
import dev.mpj.runtime.config.CollectiveAlgorithms.Alltoall;
import dev.mpj.runtime.config.CollectiveAlgorithms.Bcast;
import dev.mpj.runtime.config.CollectiveAlgorithms.Hierarchical;
import dev.mpj.runtime.config.CollectiveAlgorithms.SharedMemory;

import static dev.mpj.runtime.config.SettingParser.atLeast;
import static dev.mpj.runtime.config.SettingParser.choice;
import static dev.mpj.runtime.config.SettingParser.flag;
import static dev.mpj.runtime.config.SettingParser.integer;
import static dev.mpj.runtime.config.SettingParser.oneOf;
import static dev.mpj.runtime.config.SettingParser.text;

/**
 * Every runtime setting: its system property ({@code -Dmpj.eagerThreshold=…}), the environment variable
 * that sets it too ({@code MPJ_EAGER_THRESHOLD}), its default and what it means. A system property wins
 * over the environment. {@code mpjrun} passes {@code MPJ_*} variables through to every rank. Each setting owns
 * its parser, which knows the values it allows; {@link Settings} runs them all once.
 */
public enum Setting {
    EAGER_THRESHOLD("mpj.eagerThreshold", "65536",
            "messages up to this many bytes go eagerly; larger ones use rendezvous",
            atLeast(0)),
    RENDEZVOUS_CHUNK("mpj.rendezvousChunk", "1048576",
            "bytes per data frame of a rendezvous transfer",
            atLeast(1024)),
    EAGER_CREDIT("mpj.eagerCredit", "2097152",
            "eager bytes a rank may have sent to one peer and not yet seen received; beyond it, rendezvous",
            atLeast(0)),
    TCP_HOST("mpj.tcp.host", "auto",
            "address the TCP listener binds and advertises; auto: 127.0.0.1 when the job is on one host, else the"
                    + " address mpj.tcp.interface selects",
            text()),
    TCP_INTERFACE("mpj.tcp.interface", "auto",
            "the interface (eth0) or CIDR block (10.1.0.0/16) whose address TCP uses; auto: across hosts the host"
                    + " name's address unless loopback, else the first up non-loopback interface's",
            new TcpInterface.Parser()),
    TCP_MAX_FRAME("mpj.tcp.maxFrame", "4194304",
            "largest TCP frame accepted; a longer length field closes the connection",
            integer()),
    TCP_IO_THREADS("mpj.tcp.ioThreads", "1",
            "Netty event-loop threads per process (with mpj.tcp.progress=threads)",
            atLeast(1)),
    TCP_PROGRESS("mpj.tcp.progress", "caller",
            "who reads and writes the TCP sockets: caller (the thread that calls MPI, on every send and progress"
                    + " pass; a standby thread while it stays away) or threads (Netty event-loop threads, which"
                    + " hand frames over to it)",
            choice(TcpProgress.class)),
    TCP_NETTY_LOG("mpj.tcp.nettyLog", "stderr",
            "Netty's own log messages: stderr (its warnings and errors, one line each; the rest dropped) or netty"
                    + " (Netty's own search for SLF4J, Log4J 2 or java.util.logging, some 20 ms of a cold MPI.Init)",
            choice(NettyLogging.class)),
    PMI("mpj.pmi", "auto",
            "PMI client: auto (from the environment), pmi1, pmi2, singleton, pmix (Java 22+, libpmix)",
            oneOf(PmiDialect.class)),
    INIT_TIMEOUT("mpj.initTimeout", "60",
            "seconds a rank waits for its process manager or its peers during MPI.Init (and, with agents, a node"
                    + " agent for its children's agents to connect)",
            atLeast(1)),
    FAKE_NODES("mpj.fakeNodes", "0",
            "split the job into this many pretend nodes by blocks of consecutive ranks, whatever the process"
                    + " manager says (0: the real node map)",
            atLeast(0, " (0: real nodes)")),
    AGENTS("mpj.agents", "false",
            "mpjrun starts one node agent JVM per fake node along a tree, each serving its node's PMI (KVS in shared"
                    + " memory, fences up and down the tree) and starting its ranks; off by default: one JVM more"
                    + " per node",
            flag()),
    AGENT_TREE_WIDTH("mpj.agentTreeWidth", "16",
            "children per node agent in mpjrun's launch tree (as Slurm's TreeWidth)",
            atLeast(1)),
    AGENT_JVMS("mpj.agentJvms", "launcher",
            "how the node agents below mpjrun share JVMs: launcher (mpjrun's own, since the fake nodes are one"
                    + " machine), shared (one JVM of their own for them all) or per-node (one JVM each, as on a"
                    + " cluster)",
            choice(AgentJvms.class)),
    SEGMENT_DIR("mpj.segmentDir", "/dev/shm",
            "directory of the node segment files (java.io.tmpdir when the default /dev/shm is absent)",
            new SegmentDirectory.Parser()),
    SHM_TRANSPORT_BYTES("mpj.shmTransportBytes", "16777216",
            "bytes of each node segment reserved for the shared-memory transport (one ring per local rank,"
                    + " sized to share it; what the rings leave over holds one bulk channel per rank for large"
                    + " messages)",
            atLeast(0)),
    TRANSPORTS("mpj.transports", "auto",
            "auto: shared memory to ranks on the same node, TCP to the others; tcp: TCP to every rank;"
                    + " shm: as auto, and an error when shared memory cannot be used",
            choice(TransportMode.class)),
    WAIT_POLICY("mpj.waitPolicy", "auto",
            "how a rank waits on shared memory: spin (keep the core, then back off after 2 ms), yield (back off"
                    + " after 20 us), auto (as spin while the waits find the cores free, as yield while other work competes for them)",
            choice(WaitPolicy.class)),
    CONNECTIONS("mpj.connections", "auto",
            "when TCP connections open: eager (every pair during MPI.Init), ondemand (a pair at its first message),"
                    + " auto (eager up to 16 ranks, else ondemand)",
            choice(ConnectionMode.class)),
    CONNECT_WINDOW("mpj.connectWindow", "32",
            "eager connections: connects one rank keeps in flight at once",
            atLeast(1)),
    CONNECTION_STATS("mpj.connectionStats", "false",
            "each rank prints its connection counts and the peers it talked to at MPI.Finalize (also with"
                    + " mpj.initTimings)",
            flag()),
    VERBOSE("mpj.verbose", "false",
            "print init phases, timings and PMI counters on stderr",
            flag()),
    COLL_BCAST("mpj.coll.bcast", "auto",
            "broadcast algorithm: auto, binomial, scatter-doubling, scatter-ring (see CollectiveTuning)",
            oneOf(Bcast.class)),
    COLL_ALLGATHER("mpj.coll.allgather", "auto",
            "allgather algorithm: auto, recursive-doubling, ring",
            oneOf(Allgather.class)),
    COLL_ALLREDUCE("mpj.coll.allreduce", "auto",
            "allreduce algorithm: auto, recursive-doubling, rabenseifner, ring (the last two for commutative "
                    + "operations only; non-commutative ones always use recursive doubling)",
            oneOf(Allreduce.class)),
    COLL_ALLTOALL("mpj.coll.alltoall", "auto",
            "alltoall algorithm: auto, bruck, scattered, pairwise",
            oneOf(Alltoall.class)),
    COLL_HIERARCHICAL("mpj.coll.hierarchical", "auto",
            "node-aware bcast, reduce, allreduce, allgather and barrier (node leaders across nodes, shared memory"
                    + " within): on (whenever the communicator spans several nodes and some node holds two or more"
                    + " of its ranks), off, or auto (as on, where measured to win; see CollectiveTuning)",
            oneOf(Hierarchical.class)),
    COLL_SHARED_MEMORY("mpj.coll.sharedMemory", "auto",
            "collectives of up to 2 KiB per rank through the node segment when the communicator lies on one"
                    + " node (an alltoall: its whole send vector): auto (barrier and bcast; also allreduce, allgather"
                    + " and alltoall on a communicator of two ranks, and reduce, allreduce, allgather and alltoall when the"
                    + " node's ranks outnumber its cores), on (all six), or off (all over point-to-point)",
            oneOf(SharedMemory.class)),
    ADDRESS_EXCHANGE("mpj.addressExchange", "auto",
            "how MPI.Init exchanges business cards: simple, shm, roots, ring (PMI-2's PMIX_Ring, no fence and no"
                    + " gets: under srun --mpi=pmi2, or mpjrun with mpj.pmi=pmi2), or auto (chosen from the job's"
                    + " shape)",
            choice(AddressExchangeMode.class)),
    IRREGULAR_CARDS("mpj.irregularCards", "false",
            "business cards may differ in length between ranks: agree on the longest first (one PMI put per node,"
                    + " N gets per rank); needed when ranks advertise addresses of different forms, e.g. IPv4 and IPv6",
            flag()),
    INIT_TIMINGS("mpj.initTimings", "false",
            "each rank prints the phases of its MPI.Init with their timings and PMI operations on stderr",
            flag()),
    TEST_KILL_AFTER_PHASE("mpj.test.killAfterPhase", "",
            "for tests of crash clean-up: PHASE@RANK makes that rank SIGKILL itself when that MPI.Init phase ends",
            new KillAfterPhase.Parser());

    private final String property;
    private final String environmentVariable;
    private final String defaultValue;
    private final String description;
    private final SettingParser<?> parser;

    Setting(String property, String defaultValue, String description, SettingParser<?> parser) {
        this.property = property;
        this.environmentVariable = environmentVariableOf(property);
        this.defaultValue = defaultValue;
        this.description = description;
        this.parser = parser;
    }

    /** The system property name, e.g. {@code mpj.eagerThreshold}. */
    public String property() {
        return property;
    }

    /** The environment variable name, e.g. {@code MPJ_EAGER_THRESHOLD}. */
    public String environmentVariable() {
        return environmentVariable;
    }

    /**
     * {@code mpj.eagerThreshold} → {@code MPJ_EAGER_THRESHOLD}, by arithmetic on the ASCII letters: every rank reads
     * each setting's variable once in {@code MPI.Init}, and a call per character there is enough to have the JIT
     * compile {@code Character} and {@code StringBuilder} methods the rank never needs again.
     */
    private static String environmentVariableOf(String property) {
        char[] name = new char[2 * property.length()];
        int n = 0;
        for (int i = 0; i < property.length(); i++) {
            char c = property.charAt(i);
            if (c == '.') {
                name[n++] = '_';
            } else if (c >= 'A' && c <= 'Z') {
                name[n++] = '_';
                name[n++] = c;
            } else {
                name[n++] = c >= 'a' && c <= 'z' ? (char) (c - 'a' + 'A') : c;
            }
        }
        return new String(name, 0, n);
    }

    public String defaultValue() {
        return defaultValue;
    }

    public String description() {
        return description;
    }

    /** The typed value of {@code text}; IllegalArgumentException naming this setting when it is not allowed. */
    Object parse(String text) {
        return parser.parse(this, text);
    }
}
