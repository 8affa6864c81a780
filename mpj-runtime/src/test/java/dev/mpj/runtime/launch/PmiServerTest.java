package dev.mpj.runtime.launch;

import dev.mpj.runtime.pmi.Pmi1Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(20)
class PmiServerTest {
    private static final String KVS = "mpj_test_kvs";

    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    private final List<RawPmiClient> clients = new ArrayList<>();
    private PmiServer server;

    @AfterEach
    void tearDown() {
        clients.forEach(RawPmiClient::close);
        if (server != null) {
            server.close();
        }
    }

    @Test
    void initackTellsTheClientTheJobSizeAndItsRank() throws IOException {
        start(ProcessMapping.singleNode(3));
        RawPmiClient c = client();
        List<String> replies = c.initack(2).stream().map(Pmi1Message::toString).toList();
        assertEquals(List.of("cmd=initack", "cmd=set size=3", "cmd=set rank=2", "cmd=set debug=0"), replies);
        assertEquals("connected 2", nextEvent());
    }

    @Test
    void initAcceptsPmiVersion1() throws IOException {
        start(ProcessMapping.singleNode(1));
        Pmi1Message reply = rank(0).call("init", "pmi_version", "1", "pmi_subversion", "1");
        assertEquals("response_to_init", reply.command());
        assertEquals(0, reply.rc());
        assertEquals("1", reply.get("pmi_version"));
        assertEquals("1", reply.get("pmi_subversion"));
    }

    @Test
    void initRefusesPmiVersion2WithAnErrorReply() throws IOException {
        start(ProcessMapping.singleNode(1));
        Pmi1Message reply = rank(0).call("init", "pmi_version", "2", "pmi_subversion", "0");
        assertEquals("response_to_init", reply.command());
        assertEquals(-1, reply.rc());
    }

    @Test
    void jobQueriesAnswerWithTheJobsValues() throws IOException {
        start(ProcessMapping.singleNode(5));
        RawPmiClient c = rank(4);
        assertEquals("cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024", c.call("get_maxes").toString());
        assertEquals("cmd=appnum appnum=0", c.call("get_appnum").toString());
        assertEquals("cmd=my_kvsname kvsname=" + KVS, c.call("get_my_kvsname").toString());
        assertEquals("cmd=universe_size size=5", c.call("get_universe_size").toString());
    }

    @Test
    void putIsInvisibleToEveryoneUntilTheNextBarrier() throws IOException {
        start(ProcessMapping.singleNode(2));
        RawPmiClient r0 = rank(0);
        RawPmiClient r1 = rank(1);
        assertEquals(0, r0.call("put", "kvsname", KVS, "key", "card-0", "value", "a=b=c").rc());

        Pmi1Message early0 = r0.call("get", "kvsname", KVS, "key", "card-0");
        Pmi1Message early1 = r1.call("get", "kvsname", KVS, "key", "card-0");
        assertEquals(-1, early0.rc());
        assertEquals("key_card-0_not_found", early0.get("msg"));
        assertEquals(-1, early1.rc());

        r0.send(Pmi1Message.of("barrier_in"));
        r1.send(Pmi1Message.of("barrier_in"));
        assertEquals("barrier_out", r0.reply().command());
        assertEquals("barrier_out", r1.reply().command());
        Pmi1Message late = r1.call("get", "kvsname", KVS, "key", "card-0");
        assertEquals(0, late.rc());
        assertEquals("a=b=c", late.get("value"));
    }

    @Test
    void barrierReleasesNobodyUntilEveryRankHasEntered() throws IOException {
        start(ProcessMapping.singleNode(3));
        List<RawPmiClient> ranks = List.of(rank(0), rank(1), rank(2));
        ranks.get(0).send(Pmi1Message.of("barrier_in"));
        ranks.get(1).send(Pmi1Message.of("barrier_in"));
        assertTrue(ranks.get(0).silentFor(300), "rank 0 left the barrier before rank 2 entered it");
        assertTrue(ranks.get(1).silentFor(10), "rank 1 left the barrier before rank 2 entered it");

        ranks.get(2).send(Pmi1Message.of("barrier_in"));
        for (RawPmiClient r : ranks) {
            assertEquals("barrier_out", r.reply().command());
        }
    }

    @Test
    void processMappingIsServedBeforeAnyBarrier() throws IOException {
        start(ProcessMapping.blocks(4, 2));
        Pmi1Message reply = rank(3).call("get", "kvsname", KVS, "key", "PMI_process_mapping");
        assertEquals(0, reply.rc());
        assertEquals("(vector,(0,2,2))", reply.get("value"));
    }

    @Test
    void unknownCommandGetsAnErrorReplyAndTheConnectionStaysUsable() throws IOException {
        start(ProcessMapping.singleNode(1));
        RawPmiClient c = rank(0);
        assertEquals("cmd=frobnicate_result rc=-1 msg=unknown_command", c.call("frobnicate").toString());
        assertEquals("appnum", c.call("get_appnum").command());
        assertNull(events.poll(), "an unknown command is not a protocol error");
    }

    @Test
    void malformedLineIsReportedNamingTheRankAndTheOthersAreStillServed() throws IOException {
        start(ProcessMapping.singleNode(2));
        RawPmiClient r0 = rank(0);
        RawPmiClient r1 = rank(1);
        r1.sendRaw("cmd=put kvsname garbage\n".getBytes(StandardCharsets.US_ASCII));

        String event = nextEvent();
        assertTrue(event.startsWith("protocolError 1 sent a malformed PMI line: "), event);
        assertNull(r1.readLine(), "the offending connection is closed");
        assertEquals("appnum", r0.call("get_appnum").command());
    }

    @Test
    void lineLongerThan1024BytesIsRejected() throws IOException {
        start(ProcessMapping.singleNode(1));
        RawPmiClient c = rank(0);
        c.sendRaw(("cmd=put kvsname=" + KVS + " key=k value=" + "x".repeat(1100) + "\n")
                .getBytes(StandardCharsets.US_ASCII));
        String event = nextEvent();
        assertTrue(event.startsWith("protocolError 0 sent a malformed PMI line: longer than 1024 bytes"), event);
    }

    @Test
    void commandsBeforeInitackAreRejectedAsUnidentified() throws IOException {
        start(ProcessMapping.singleNode(1));
        RawPmiClient c = client();
        c.sendRaw("cmd=init pmi_version=1 pmi_subversion=1\n".getBytes(StandardCharsets.US_ASCII));
        String event = nextEvent();
        assertTrue(event.startsWith("protocolError -1 sent cmd=init before identifying itself"), event);
    }

    @Test
    void twoConnectionsCannotClaimTheSameRank() throws IOException {
        start(ProcessMapping.singleNode(2));
        rank(1);
        client().send(Pmi1Message.of("initack", "pmiid", "1"));
        String event = nextEvent();
        assertTrue(event.startsWith("protocolError -1 claimed pmiid=1, which another connection already holds"),
                event);
    }

    @Test
    void finalizeIsAcknowledgedAndAFollowingCloseIsNoFailure() throws IOException {
        start(ProcessMapping.singleNode(1));
        RawPmiClient c = rank(0);
        assertEquals("cmd=finalize_ack", c.call("finalize").toString());
        assertEquals("finalized 0", nextEvent());
        c.close();
        assertNull(pollEvent(300), "closing after finalize reports nothing");
    }

    @Test
    void closeBeforeFinalizeIsReportedAsAnEarlyDisconnect() throws IOException {
        start(ProcessMapping.singleNode(2));
        rank(0);
        rank(1).close();
        assertEquals("disconnected 1", nextEvent());
    }

    @Test
    void abortIsReportedWithItsExitCode() throws IOException {
        start(ProcessMapping.singleNode(4));
        RawPmiClient c = rank(2);
        c.send(Pmi1Message.of("abort", "exitcode", "3"));
        assertEquals("aborted 2 3", nextEvent());
        assertTrue(c.silentFor(200), "abort has no reply");
    }

    @Test
    void barrierAfterARankFinalizedIsReportedInsteadOfHanging() throws IOException {
        start(ProcessMapping.singleNode(2));
        RawPmiClient r0 = rank(0);
        RawPmiClient r1 = rank(1);
        r0.call("finalize");
        assertEquals("finalized 0", nextEvent());
        r1.send(Pmi1Message.of("barrier_in"));
        String event = nextEvent();
        assertTrue(event.startsWith("protocolError 1 entered a PMI barrier after rank 0 had finalized"), event);
    }

    // ---- helpers ----

    private void start(ProcessMapping mapping) throws IOException {
        server = new PmiServer(mapping, KVS, new RecordingListener());
        server.start();
    }

    private RawPmiClient client() throws IOException {
        RawPmiClient c = RawPmiClient.connect(server.portVariable(), 5000);
        clients.add(c);
        return c;
    }

    /** A connection that has identified itself as {@code rank}; its "connected" event is consumed. */
    private RawPmiClient rank(int rank) throws IOException {
        RawPmiClient c = client();
        c.initack(rank);
        assertEquals("connected " + rank, nextEvent());
        return c;
    }

    private String nextEvent() {
        String e = pollEvent(5000);
        if (e == null) {
            throw new AssertionError("no event from the PMI server within 5 s");
        }
        return e;
    }

    private String pollEvent(long millis) {
        try {
            return events.poll(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private final class RecordingListener implements PmiServer.Listener {
        @Override
        public void rankConnected(int rank) {
            events.add("connected " + rank);
        }

        @Override
        public void rankFinalized(int rank) {
            events.add("finalized " + rank);
        }

        @Override
        public void rankAborted(int rank, int exitCode) {
            events.add("aborted " + rank + " " + exitCode);
        }

        @Override
        public void rankDisconnected(int rank) {
            events.add("disconnected " + rank);
        }

        @Override
        public void protocolError(int rank, String problem) {
            events.add("protocolError " + rank + " " + problem);
        }

        @Override
        public void serverFailed(Exception cause) {
            events.add("serverFailed " + cause);
        }
    }
}
