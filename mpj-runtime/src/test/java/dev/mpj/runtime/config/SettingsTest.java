package dev.mpj.runtime.config;

import dev.mpj.runtime.config.CollectiveAlgorithms.Allreduce;
import dev.mpj.runtime.config.CollectiveAlgorithms.Bcast;
import dev.mpj.runtime.config.CollectiveAlgorithms.Hierarchical;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every setting concluded once: defaults, typed values, the error of each bad value, and who wins. */
class SettingsTest {
    private static String refused(Setting setting, String value) {
        return assertThrows(IllegalArgumentException.class,
                () -> Settings.from(Map.of(setting.environmentVariable(), value), Map.of())).getMessage();
    }

    @Test
    void everyDefaultConcludes() {
        Settings d = Settings.defaults();
        assertEquals(65536, d.eagerThreshold());
        assertEquals(1048576, d.rendezvousChunk());
        assertEquals("auto", d.tcpHost());
        assertEquals(4194304, d.tcpMaxFrame());
        assertEquals(1, d.tcpIoThreads());
        assertEquals(TcpProgress.CALLER, d.tcpProgress());
        assertEquals(NettyLogging.STDERR, d.tcpNettyLog());
        assertEquals(PmiDialect.AUTO, d.pmi());
        assertEquals(60, d.initTimeoutSeconds());
        assertEquals(0, d.fakeNodes());
        assertEquals(new SegmentDirectory(Path.of("/dev/shm"), true), d.segmentDirectory());
        assertEquals(16777216, d.shmTransportBytes());
        assertEquals(TransportMode.AUTO, d.transports());
        assertEquals(WaitPolicy.AUTO, d.waitPolicy());
        assertEquals(ConnectionMode.AUTO, d.connections());
        assertEquals(32, d.connectWindow());
        assertEquals(Bcast.AUTO, d.bcastAlgorithm());
        assertEquals(CollectiveAlgorithms.Allgather.AUTO, d.allgatherAlgorithm());
        assertEquals(Allreduce.AUTO, d.allreduceAlgorithm());
        assertEquals(CollectiveAlgorithms.Alltoall.AUTO, d.alltoallAlgorithm());
        assertEquals(Hierarchical.AUTO, d.hierarchicalCollectives());
        assertEquals(AddressExchangeMode.AUTO, d.addressExchange());
        assertFalse(d.verbose() || d.irregularCards() || d.initTimings() || d.connectionStats());
        assertNull(d.killAfterPhase());
    }

    @Test
    void aPropertyBeatsTheEnvironmentWhichBeatsTheDefault() {
        Map<String, String> env = Map.of("MPJ_EAGER_THRESHOLD", "1024", "MPJ_CONNECT_WINDOW", "4");
        Settings s = Settings.from(env, Map.of("mpj.eagerThreshold", "2048"));
        assertEquals(2048, s.eagerThreshold());
        assertEquals(4, s.connectWindow());
        assertEquals(1048576, s.rendezvousChunk());
    }

    @Test
    void valuesAreTypedInAnyCaseAndTrimmed() {
        Settings s = Settings.from(Map.of("MPJ_TRANSPORTS", " TCP ", "MPJ_CONNECTIONS", "on-demand",
                "MPJ_COLL_BCAST", "Scatter-Ring", "MPJ_PMI", "Singleton", "MPJ_TEST_KILL_AFTER_PHASE", "segment@3",
                "MPJ_TCP_NETTY_LOG", "netty", "MPJ_IRREGULAR_CARDS", "yes"), Map.of());
        assertEquals(TransportMode.TCP, s.transports());
        assertEquals(ConnectionMode.ONDEMAND, s.connections());
        assertEquals(Bcast.SCATTER_RING, s.bcastAlgorithm());
        assertEquals(PmiDialect.SINGLETON, s.pmi());
        assertEquals(new KillAfterPhase("segment", 3), s.killAfterPhase());
        assertEquals(NettyLogging.NETTY, s.tcpNettyLog());
        assertTrue(s.irregularCards());
    }

    @Test
    void verboseImpliesInitTimingsWhichImplyConnectionStats() {
        Settings s = Settings.from(Map.of("MPJ_VERBOSE", "true"), Map.of());
        assertTrue(s.initTimings());
        assertTrue(s.connectionStats());
    }

    @Test
    void aDerivedCopyConcludesAgain() {
        Settings s = Settings.defaults().with(Setting.SHM_TRANSPORT_BYTES, "0");
        assertEquals(0, s.shmTransportBytes());
        assertEquals(16777216, Settings.defaults().shmTransportBytes());
        assertThrows(IllegalArgumentException.class, () -> s.with(Setting.SHM_TRANSPORT_BYTES, "-1"));
    }

    @Test
    void eachBadValueNamesItsSettingAndWhatItMustBe() {
        assertEquals("mpj.eagerThreshold must be an integer, not 'lots'", refused(Setting.EAGER_THRESHOLD, "lots"));
        assertEquals("mpj.eagerThreshold must be >= 0", refused(Setting.EAGER_THRESHOLD, "-1"));
        assertEquals("mpj.rendezvousChunk must be >= 1024", refused(Setting.RENDEZVOUS_CHUNK, "1023"));
        assertEquals("mpj.tcp.maxFrame (1024) must hold the larger of the eager threshold and the rendezvous chunk"
                + " plus headers (1048640)", refused(Setting.TCP_MAX_FRAME, "1024"));
        assertEquals("mpj.tcp.ioThreads must be >= 1", refused(Setting.TCP_IO_THREADS, "0"));
        assertEquals("mpj.tcp.progress must be caller or threads, not 'spin'", refused(Setting.TCP_PROGRESS, "spin"));
        assertEquals("mpj.tcp.nettyLog must be stderr or netty, not 'slf4j'", refused(Setting.TCP_NETTY_LOG, "slf4j"));
        assertEquals("mpj.pmi must be one of auto, pmi1, pmi2, singleton, pmix, not 'pmi3'", refused(Setting.PMI, "pmi3"));
        assertEquals("mpj.initTimeout must be >= 1", refused(Setting.INIT_TIMEOUT, "0"));
        assertEquals("mpj.fakeNodes must be >= 0 (0: real nodes)", refused(Setting.FAKE_NODES, "-2"));
        assertEquals("mpj.segmentDir must name a directory", refused(Setting.SEGMENT_DIR, " "));
        assertEquals("mpj.shmTransportBytes must be >= 0", refused(Setting.SHM_TRANSPORT_BYTES, "-1"));
        assertEquals("mpj.transports must be auto, tcp or shm, not 'udp'", refused(Setting.TRANSPORTS, "udp"));
        assertEquals("mpj.waitPolicy must be auto, spin or yield, not 'busy'", refused(Setting.WAIT_POLICY, "busy"));
        assertEquals("mpj.connections must be eager, ondemand or auto, not 'lazy'",
                refused(Setting.CONNECTIONS, "lazy"));
        assertEquals("mpj.connectWindow must be >= 1", refused(Setting.CONNECT_WINDOW, "0"));
        assertEquals("mpj.coll.bcast must be one of auto, binomial, scatter-doubling, scatter-ring, not 'flat'",
                refused(Setting.COLL_BCAST, "flat"));
        assertEquals("mpj.coll.allgather must be one of auto, recursive-doubling, ring, not 'bruck'",
                refused(Setting.COLL_ALLGATHER, "bruck"));
        assertEquals("mpj.coll.allreduce must be one of auto, recursive-doubling, rabenseifner, ring, not 'tree'",
                refused(Setting.COLL_ALLREDUCE, "tree"));
        assertEquals("mpj.coll.alltoall must be one of auto, bruck, scattered, pairwise, not 'ring'",
                refused(Setting.COLL_ALLTOALL, "ring"));
        assertEquals("mpj.coll.hierarchical must be one of auto, on, off, not 'sometimes'",
                refused(Setting.COLL_HIERARCHICAL, "sometimes"));
        assertEquals("mpj.addressExchange must be simple, shm, roots, ring or auto, not 'fastest'",
                refused(Setting.ADDRESS_EXCHANGE, "fastest"));
        assertEquals("mpj.test.killAfterPhase must be PHASE@RANK, e.g. segment@0, not 'segment@'",
                refused(Setting.TEST_KILL_AFTER_PHASE, "segment@"));
        assertEquals("mpj.test.killAfterPhase must be PHASE@RANK, e.g. segment@0, not 'segment@99999999999'",
                refused(Setting.TEST_KILL_AFTER_PHASE, "segment@99999999999"));
    }

    @Test
    void namesAndDefaultsStayAsDocumented() {
        assertEquals("MPJ_EAGER_THRESHOLD", Setting.EAGER_THRESHOLD.environmentVariable());
        assertEquals("MPJ_TCP_NETTY_LOG", Setting.TCP_NETTY_LOG.environmentVariable());
        assertEquals("MPJ_TEST_KILL_AFTER_PHASE", Setting.TEST_KILL_AFTER_PHASE.environmentVariable());
        assertEquals("mpj.coll.hierarchical", Setting.COLL_HIERARCHICAL.property());
        assertEquals("MPJ_COLL_SHARED_MEMORY", Setting.COLL_SHARED_MEMORY.environmentVariable());
        assertEquals(33, Setting.values().length);
        assertEquals("MPJ_AGENT_JVMS", Setting.AGENT_JVMS.environmentVariable());
        assertEquals(AgentJvms.LAUNCHER, Settings.defaults().agentJvms(), "fake nodes are one machine: the launcher's JVM");
        assertEquals("MPJ_TCP_INTERFACE", Setting.TCP_INTERFACE.environmentVariable());
        assertEquals("MPJ_EAGER_CREDIT", Setting.EAGER_CREDIT.environmentVariable());
        assertEquals(2 << 20, Settings.defaults().eagerCredit());
        assertEquals("mpj.eagerCredit must be >= 0", refused(Setting.EAGER_CREDIT, "-1"));
    }
}
