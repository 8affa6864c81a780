package dev.mpj.launcher.agent;

import dev.mpj.launcher.pmi.RawPmiClient;
import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.PmiAllgather;
import dev.mpj.runtime.pmi.wire.PmiSecret;
import dev.mpj.runtime.pmi.wire.ProcessMapping;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three agents in one JVM over loopback, as a chain (tree width 1: node 0, its child 1, its grandchild 2), with
 * six raw PMI clients as the ranks, two per node: collectives cross two levels up and down, in rank order.
 */
@Timeout(30)
class NodeAgentTest {
    private static final String KVS = "mpj_test_kvs";
    private static final String SECRET = PmiSecret.newSecret();
    private static final ProcessMapping MAPPING = ProcessMapping.blocks(6, 3);
    /** The ranks' init timeout, which bounds the children's coming: longer than any test. */
    private static final Duration INIT_TIMEOUT = Duration.ofSeconds(60);

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<NodeAgent> agents = new ArrayList<>();
    private final List<RawPmiClient> ranks = new ArrayList<>();

    @BeforeEach
    void startTheTreeAndConnectTheRanks() throws IOException {
        NodeAgent root = NodeAgent.root(MAPPING, KVS, SECRET, 1, INIT_TIMEOUT, new RecordingEvents(events),
                new byte[] {42});
        root.start();
        agents.add(root);
        for (int node = 1; node < 3; node++) {
            NodeAgent.Connected c = NodeAgent.connect(agents.get(node - 1).childrenPort(), SECRET, node);
            assertEquals(42, c.spec()[0], "the parent passes the job on");
            NodeAgent agent = NodeAgent.below(c.link(), MAPPING, KVS, SECRET, node, 1, INIT_TIMEOUT, c.spec());
            agent.start();
            agents.add(agent);
        }
        for (int rank = 0; rank < 6; rank++) {
            RawPmiClient c = RawPmiClient.connect(agents.get(rank / 2).pmiPort(), 5000, SECRET);
            c.initack(rank);
            ranks.add(c);
        }
    }

    @AfterEach
    void stop() {
        ranks.forEach(RawPmiClient::close);
        for (int i = agents.size() - 1; i >= 0; i--) {
            agents.get(i).close();
        }
    }

    @Test
    @Timeout(20)
    void ranksThatFenceBeforeTheirChildAgentConnectsAreAnsweredOnceItsPartsCome() throws IOException {
        NodeAgent root = NodeAgent.root(ProcessMapping.blocks(4, 2), KVS, SECRET, 1, INIT_TIMEOUT,
                new RecordingEvents(events), new byte[0]);
        root.start();
        List<RawPmiClient> early = new ArrayList<>();
        NodeAgent child = null;
        try {
            for (int rank = 0; rank < 2; rank++) {
                early.add(RawPmiClient.connect(root.pmiPort(), 5000, SECRET));
                early.get(rank).initack(rank);
                early.get(rank).call("put", "kvsname", KVS, "key", "early-" + rank, "value", "e" + rank);
                early.get(rank).send(Pmi1Message.of("barrier_in"));
            }
            assertEquals(0, root.connectedChildren(), "node 1's agent has not come yet");
            NodeAgent.Connected c = NodeAgent.connect(root.childrenPort(), SECRET, 1);
            child = NodeAgent.below(c.link(), ProcessMapping.blocks(4, 2), KVS, SECRET, 1, 1, INIT_TIMEOUT,
                    c.spec());
            child.start();
            List<RawPmiClient> late = new ArrayList<>();
            for (int rank = 2; rank < 4; rank++) {
                RawPmiClient r = RawPmiClient.connect(child.pmiPort(), 5000, SECRET);
                late.add(r);
                r.initack(rank);
                r.send(Pmi1Message.of("barrier_in"));
            }
            early.addAll(late);
            for (RawPmiClient r : early) {
                assertEquals("barrier_out", r.reply().command());
            }
            assertEquals("e0", late.get(1).call("get", "kvsname", KVS, "key", "early-0").get("value"),
                    "the early ranks' puts reached the late node");
        } finally {
            early.forEach(RawPmiClient::close);
            if (child != null) {
                child.close();
            }
            root.close();
        }
    }

    @Test
    void aFencePublishesEveryNodesPutsToEveryRank() {
        for (int r = 0; r < 6; r++) {
            assertEquals(0, ranks.get(r).call("put", "kvsname", KVS, "key", "card-" + r, "value", "v" + r).rc());
        }
        ranks.forEach(c -> c.send(Pmi1Message.of("barrier_in")));
        for (RawPmiClient c : ranks) {
            assertEquals("barrier_out", c.reply().command());
        }
        for (int r = 0; r < 6; r++) {
            assertEquals("v" + (5 - r), ranks.get(r).call("get", "kvsname", KVS, "key", "card-" + (5 - r))
                    .get("value"));
        }
    }

    @Test
    void anAllgatherAnswersEveryRankWithAllValuesInRankOrder() {
        for (int r = 5; r >= 0; r--) {
            ranks.get(r).send(Pmi1Message.of(PmiAllgather.PMI1_REQUEST, PmiAllgather.VALUE, "a" + r));
        }
        for (RawPmiClient c : ranks) {
            Pmi1Message result = c.reply();
            assertEquals("6", result.get(PmiAllgather.COUNT), result.toString());
            assertEquals("a0,a1,a2,a3,a4,a5", c.reply().get(PmiAllgather.VALUES));
        }
    }

    @Test
    void theRingAnswersEachRankWithItsNeighboursAcrossNodes() {
        for (RawPmiClient c : ranks) {
            c.call(Pmi1Message.of("init", "pmi_version", "2", "pmi_subversion", "0"));
        }
        for (int r = 0; r < 6; r++) {
            ranks.get(r).send2("ring", "ring-count", "1", "ring-left", "v" + r, "ring-right", "v" + r);
        }
        for (int r = 0; r < 6; r++) {
            assertEquals("cmd=ring-response;rc=0;ring-count=" + r + ";ring-left=v" + (r + 5) % 6 + ";ring-right=v"
                    + (r + 1) % 6 + ";", ranks.get(r).frame().toString());
        }
    }

    @Test
    void eachAgentServesItsOwnNodesRanksOnly() throws IOException {
        RawPmiClient stranger = RawPmiClient.connect(agents.get(1).pmiPort(), 5000, SECRET);
        stranger.send(Pmi1Message.of("initack", "pmiid", "4"));
        assertThrows(RuntimeException.class, stranger::reply, "rank 4 lives on node 2");
        stranger.close();
        assertTrue(eventually(e -> e.startsWith("rejected") && e.contains("a rank of node 2")), events.toString());
    }

    /** Whether an event matching {@code wanted} arrives within 5 s: a child agent's events travel up the tree. */
    private boolean eventually(Predicate<String> wanted) {
        return eventually(events, wanted);
    }

    private static boolean eventually(List<String> events, Predicate<String> wanted) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (events.stream().noneMatch(wanted)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(1_000_000L);
        }
        return true;
    }

    @Test
    void aChildWithoutTheSecretIsRejectedAndTheTreeStillWorks() throws IOException {
        NodeAgent leaf = agents.get(2);
        int port = agents.get(1).childrenPort();
        assertThrows(IOException.class, () -> NodeAgent.connect(port, "not-the-secret", 2));
        try (Socket silent = new Socket(InetAddress.getLoopbackAddress(), port)) {
            assertTrue(silent.isConnected());
            aFencePublishesEveryNodesPutsToEveryRank(); // a stranger that sends nothing holds nobody up
        }
        assertEquals(1, agents.get(1).connectedChildren(), "node 2's agent " + leaf.node() + " only");
        assertTrue(eventually(e -> e.contains("did not show the job's secret")), events.toString());
    }

    @Test
    void childAgentsThatNeverConnectFailTheJobInOneLineNamingTheirNodesAfterTheInitTimeout() throws IOException {
        List<String> seen = new CopyOnWriteArrayList<>();
        NodeAgent root = rootWithOneSecondInitTimeout(ProcessMapping.blocks(6, 3), 2, seen);
        NodeAgent.Connected c = NodeAgent.connect(root.childrenPort(), SECRET, 2);
        try {
            assertTrue(eventually(seen, e -> e.startsWith("agent ")), seen.toString());
            List<String> failures = seen.stream().filter(e -> e.startsWith("agent ")).toList();
            assertEquals(List.of("agent 1 the agent of node 1 did not connect to the agent of node 0 within 1 s"
                    + " (mpj.initTimeout)"), failures, "node 2's agent came: only node 1's is named, in one line");
        } finally {
            root.close();
            c.link().close();
        }
    }

    @Test
    void aChildThatComesAfterItWasNamedMissingIsTurnedAwayNotAdmitted() throws IOException {
        List<String> seen = new CopyOnWriteArrayList<>();
        NodeAgent root = rootWithOneSecondInitTimeout(ProcessMapping.blocks(4, 2), 1, seen);
        try {
            assertTrue(eventually(seen, e -> e.startsWith("agent 1 ")), seen.toString());
            assertThrows(IOException.class, () -> NodeAgent.connect(root.childrenPort(), SECRET, 1),
                    "a child the job was failed for is not handed the job");
            assertEquals(0, root.connectedChildren());
            assertTrue(eventually(seen, e -> e.startsWith("rejected") && e.contains("after the init timeout")),
                    seen.toString());
        } finally {
            root.close();
        }
    }

    @Test
    void aConnectionHasTheInitTimeoutToShowTheSecret() throws IOException {
        List<String> seen = new CopyOnWriteArrayList<>();
        NodeAgent root = rootWithOneSecondInitTimeout(ProcessMapping.blocks(4, 2), 1, seen);
        try (Socket silent = new Socket(InetAddress.getLoopbackAddress(), root.childrenPort())) {
            silent.setSoTimeout(8000); // well short of the 10 s a connection had before the limit followed the setting
            assertEquals(-1, silent.getInputStream().read(), "closed once the init timeout passed");
            assertTrue(eventually(seen, e -> e.startsWith("rejected") && e.contains("timed out")), seen.toString());
        } finally {
            root.close();
        }
    }

    /** Writes each event as a line. */
    private record RecordingEvents(List<String> lines) implements NodeAgent.Events {
        @Override
        public void rankConnected(int rank) {
            lines.add("connected " + rank);
        }

        @Override
        public void rankFinalized(int rank) {
            lines.add("finalized " + rank);
        }

        @Override
        public void rankAborted(int rank, int exitCode) {
            lines.add("aborted " + rank + " " + exitCode);
        }

        @Override
        public void rankDisconnected(int rank) {
            lines.add("disconnected " + rank);
        }

        @Override
        public void protocolError(int rank, String problem) {
            lines.add("protocol " + rank + " " + problem);
        }

        @Override
        public void connectionsRejected(String report) {
            lines.add("rejected " + report);
        }

        @Override
        public void serverFailed(Exception cause) {
            lines.add("failed " + cause);
        }

        @Override
        public void rankStarted(int rank, long pid) {
            lines.add("started " + rank + " " + pid);
        }

        @Override
        public void rankExited(int rank, int status) {
            lines.add("exited " + rank + " " + status);
        }

        @Override
        public void agentFailed(int node, String problem) {
            lines.add("agent " + node + " " + problem);
        }
    }

    /** A started root agent whose connections and children have one second (its init timeout) to arrive. */
    private static NodeAgent rootWithOneSecondInitTimeout(ProcessMapping mapping, int width, List<String> seen)
            throws IOException {
        NodeAgent root = NodeAgent.root(mapping, KVS, SECRET, width, Duration.ofSeconds(1), new RecordingEvents(seen),
                new byte[0]);
        root.start();
        return root;
    }
}
