package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.Pmi1Client;
import dev.mpj.runtime.pmi.Pmi2Client;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.Pmi2Message;
import dev.mpj.runtime.pmi.wire.PmiSecret;
import dev.mpj.runtime.pmi.wire.PmiVariables;
import dev.mpj.runtime.pmi.wire.ProcessMapping;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(20)
class PmiServerTest {
    private static final String KVS = "mpj_test_kvs";
    private static final String SECRET = PmiSecret.newSecret();

    private final ServerEvents events = new ServerEvents(true);
    private final List<RawPmiClient> clients = new ArrayList<>();
    private PmiServer server;

    @AfterEach
    void tearDown() {
        clients.forEach(RawPmiClient::close);
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest
    @CsvSource({"mpj_1.a-Z9, true", "'', false", "a b, false", "a/b, false", "kvs:1, false", "\u00e9, false"})
    void aKvsNameIsLettersDigitsDotsDashesAndUnderscores(String name, boolean usable) {
        boolean accepted;
        try {
            new PmiServer(ProcessMapping.singleNode(1), name, SECRET, Duration.ofSeconds(1), events).close();
            accepted = true;
        } catch (IllegalArgumentException e) {
            accepted = false;
        }
        assertEquals(usable, accepted, name);
    }

    @Test
    void initackTellsTheClientTheJobSizeAndItsRank() throws IOException {
        start(ProcessMapping.singleNode(3));
        RawPmiClient c = client();
        List<String> replies = c.initack(2).stream().map(Pmi1Message::toString).toList();
        assertEquals(List.of("cmd=initack", "cmd=set size=3", "cmd=set rank=2", "cmd=set debug=0"), replies);
        assertEquals("connected 2", events.next());
    }

    @Test
    void aPipelinedClientStartsInOneRoundTripAndWorksOnAsUsual() throws Exception {
        start(ProcessMapping.singleNode(2));
        try (Pmi1Client zero = Pmi1Client.overPort(server.portVariable(), 0, true, SECRET);
             Pmi1Client one = Pmi1Client.overPort(server.portVariable(), 1, true, SECRET)) {
            assertEquals(List.of(0, 2, 1, 2), List.of(zero.rank(), zero.size(), one.rank(), one.size()));
            assertEquals(KVS, zero.jobId());
            assertEquals(KVS, one.jobId());
            assertTrue(zero.maxValueLength() > 0);
            // the connection is in step after the pipelined start: a put, a barrier and a get still match up
            zero.put("card-0", "abc");
            Thread other = new Thread(one::barrier);
            other.start();
            zero.barrier();
            other.join(5000);
            assertEquals("abc", one.get("card-0"));
        }
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
    void initRefusesAnUnknownPmiVersionWithAnErrorReply() throws IOException {
        start(ProcessMapping.singleNode(1));
        Pmi1Message reply = rank(0).call("init", "pmi_version", "3", "pmi_subversion", "0");
        assertEquals("response_to_init", reply.command());
        assertEquals(-1, reply.rc());
    }

    // ---- PMI-2 ----

    @Test
    void initWithPmiVersion2AnswersInPmi1ThenSpeaksFramedPmi2() throws IOException {
        start(ProcessMapping.singleNode(3));
        RawPmiClient c = rank(2);
        Pmi1Message init = c.call("init", "pmi_version", "2", "pmi_subversion", "0");
        assertEquals("cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0", init.toString());
        Pmi2Message full = c.call2("fullinit", "pmirank", "2", "threaded", "FALSE");
        assertEquals("fullinit-response", full.command());
        assertEquals(0, full.rc());
        assertEquals("2", full.get("rank"));
        assertEquals("3", full.get("size"));
        assertEquals("cmd=job-getid-response;rc=0;jobid=" + KVS + ";", c.call2("job-getid").toString());
    }

    @Test
    void jobAttributesAreTheMappingAndTheUniverseSize() throws IOException {
        start(ProcessMapping.blocks(4, 2));
        RawPmiClient c = pmi2Rank(0);
        assertEquals("(vector,(0,2,2))", c.call2("info-getjobattr", "key", "PMI_process_mapping").foundValue());
        assertEquals("4", c.call2("info-getjobattr", "key", "universeSize").foundValue());
        assertEquals("FALSE", c.call2("info-getjobattr", "key", "PMI_hwloc_xmlfile").get("found"));
    }

    @Test
    void kvsFenceIsATrueBarrierThatPublishesThePuts() throws IOException {
        start(ProcessMapping.singleNode(2));
        RawPmiClient r0 = pmi2Rank(0);
        RawPmiClient r1 = pmi2Rank(1);
        assertEquals(0, r0.call2("kvs-put", "key", "card-0", "value", "0a0b").rc());
        assertNull(r1.call2("kvs-get", "jobid", KVS, "srcid", "-1", "key", "card-0").foundValue(),
                "invisible before the fence");
        r0.send2("kvs-fence");
        assertTrue(r0.silentFor(300), "the fence waits for rank 1");
        r1.send2("kvs-fence");
        assertEquals("cmd=kvs-fence-response;rc=0;", r0.frame().toString());
        assertEquals("cmd=kvs-fence-response;rc=0;", r1.frame().toString());
        assertEquals("0a0b", r1.call2("kvs-get", "jobid", KVS, "srcid", "-1", "key", "card-0").foundValue());
    }

    @Test
    void pmi1AndPmi2RanksShareOneBarrierAndOneKvs() throws IOException {
        start(ProcessMapping.singleNode(2));
        RawPmiClient old = rank(0);
        RawPmiClient framed = pmi2Rank(1);
        old.call("put", "kvsname", KVS, "key", "from-1", "value", "one");
        framed.call2("kvs-put", "key", "from-2", "value", "two");
        old.send(Pmi1Message.of("barrier_in"));
        framed.send2("kvs-fence");
        assertEquals("barrier_out", old.reply().command());
        assertEquals("kvs-fence-response", framed.frame().command());
        assertEquals("two", old.call("get", "kvsname", KVS, "key", "from-2").get("value"));
        assertEquals("one", framed.call2("kvs-get", "jobid", KVS, "srcid", "-1", "key", "from-1").foundValue());
    }

    @Test
    void nodeAttributeWaitIsAnsweredOnlyByAPutOnTheSameNode() throws IOException {
        start(ProcessMapping.blocks(4, 2)); // ranks 0,1 on node 0; 2,3 on node 1
        RawPmiClient r0 = pmi2Rank(0);
        RawPmiClient r1 = pmi2Rank(1);
        RawPmiClient r2 = pmi2Rank(2);
        RawPmiClient r3 = pmi2Rank(3);
        r1.send2("info-getnodeattr", "key", "segment", "wait", "TRUE");
        assertEquals(0, r2.call2("info-putnodeattr", "key", "segment", "value", "node-1").rc());
        assertTrue(r1.silentFor(300), "a put on another node does not answer the wait");
        assertEquals(0, r0.call2("info-putnodeattr", "key", "segment", "value", "node-0").rc());
        assertEquals("node-0", r1.frame().foundValue());
        assertEquals("node-1", r3.call2("info-getnodeattr", "key", "segment", "wait", "FALSE").foundValue());
        assertNull(r3.call2("info-getnodeattr", "key", "other", "wait", "FALSE").foundValue());
    }

    @Test
    void thridIsEchoedInTheReply() throws IOException {
        start(ProcessMapping.singleNode(1));
        RawPmiClient c = pmi2Rank(0);
        assertEquals("0x7f", c.call2("kvs-put", "key", "k", "value", "v", "thrid", "0x7f").get("thrid"));
    }

    @Test
    void unknownPmi2CommandGetsAnErrorReply() throws IOException {
        start(ProcessMapping.singleNode(1));
        RawPmiClient c = pmi2Rank(0);
        assertEquals(-1, c.call2("job-connect", "jobid", "x").rc());
        assertNull(events.poll(), "an unknown command is not a protocol error");
    }

    @Test
    void pmi2FinalizeIsAcknowledged() throws IOException {
        start(ProcessMapping.singleNode(1));
        RawPmiClient c = pmi2Rank(0);
        assertEquals("cmd=finalize-response;rc=0;", c.call2("finalize").toString());
        assertEquals("finalized 0", events.next());
    }

    @Test
    void pmi2AbortEndsTheJobWithItsExitCode() throws IOException {
        start(ProcessMapping.singleNode(2));
        RawPmiClient c = pmi2Rank(1);
        c.send2("abort", "isworld", "TRUE", "msg", "bad input", "exitcode", "7");
        assertEquals("aborted 1 7", events.next());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "bad length field | 12x456cmd=kvs-fence;",
            "oversized body   | 9999  cmd=kvs-fence;",
            "missing cmd      | 7     key=a;;",
            "empty length     | '      cmd=kvs-fence;'"})
    void malformedFrameIsReportedNamingTheRankAndTheOthersAreStillServed(String what, String frame)
            throws IOException {
        start(ProcessMapping.singleNode(2));
        RawPmiClient r0 = pmi2Rank(0);
        RawPmiClient r1 = pmi2Rank(1);
        r1.sendRaw(frame.getBytes(StandardCharsets.US_ASCII));
        assertFailedAndOthersServed(r1, "sent a malformed PMI-2 frame: ", r0);
    }

    @Test
    void ringAnswersNobodyUntilEveryRankEntersThenEachItsPositionAndNeighboursValues() throws IOException {
        start(ProcessMapping.blocks(4, 2));
        List<RawPmiClient> ranks = List.of(pmi2Rank(0), pmi2Rank(1), pmi2Rank(2), pmi2Rank(3));
        for (int r : new int[]{2, 0, 3}) {
            ranks.get(r).send2("ring", "ring-count", "1", "ring-left", "v" + r, "ring-right", "v" + r);
        }
        assertTrue(ranks.get(2).silentFor(300), "the ring waits for rank 1");
        ranks.get(1).send2("ring", "ring-count", "1", "ring-left", "v1", "ring-right", "v1", "thrid", "0x9");
        assertEquals("cmd=ring-response;rc=0;ring-count=0;ring-left=v3;ring-right=v1;", ranks.get(0).frame().toString());
        assertEquals("cmd=ring-response;rc=0;ring-count=1;ring-left=v0;ring-right=v2;thrid=0x9;",
                ranks.get(1).frame().toString());
        assertEquals("cmd=ring-response;rc=0;ring-count=2;ring-left=v1;ring-right=v3;", ranks.get(2).frame().toString());
        assertEquals("cmd=ring-response;rc=0;ring-count=3;ring-left=v2;ring-right=v0;", ranks.get(3).frame().toString());
    }

    /** As Slurm's ring.c: counts add up before each rank; a rank without a value passes its neighbour's on. */
    @Test
    void ringCountsArePrefixSumsAndRanksWithoutValuesAreSkipped() throws IOException {
        start(ProcessMapping.singleNode(4));
        List<RawPmiClient> ranks = List.of(pmi2Rank(0), pmi2Rank(1), pmi2Rank(2), pmi2Rank(3));
        ranks.get(0).send2("ring", "ring-count", "2", "ring-left", "a", "ring-right", "a");
        ranks.get(1).send2("ring", "ring-count", "0");
        ranks.get(2).send2("ring", "ring-count", "3", "ring-left", "c", "ring-right", "c");
        ranks.get(3).send2("ring", "ring-count", "1");
        List<String> replies = ranks.stream().map(r -> r.frame().toString()).toList();
        assertEquals(List.of(
                "cmd=ring-response;rc=0;ring-count=0;ring-right=c;",
                "cmd=ring-response;rc=0;ring-count=2;ring-left=a;ring-right=c;",
                "cmd=ring-response;rc=0;ring-count=2;ring-left=a;ring-right=a;",
                "cmd=ring-response;rc=0;ring-count=5;ring-left=c;ring-right=a;"), replies);
        // the ring can run again
        for (RawPmiClient r : ranks) {
            r.send2("ring", "ring-count", "1", "ring-left", "x", "ring-right", "y");
        }
        assertEquals("cmd=ring-response;rc=0;ring-count=3;ring-left=y;ring-right=x;", ranks.get(3).frame().toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no ring-count       | ring-left=v;ring-right=v;             | malformed PMI-2 frame",
            "ring-count not int  | ring-count=one;ring-left=v;           | malformed PMI-2 frame",
            "negative ring-count | ring-count=-1;ring-left=v;            | negative ring-count -1",
            "entered twice       | ring-count=1;ring-left=v;ring-right=v; | entered the PMI ring twice"})
    void malformedRingRequestIsReportedNamingTheRankAndTheOthersAreStillServed(String what, String fields,
                                                                               String problem) throws IOException {
        start(ProcessMapping.singleNode(3));
        RawPmiClient r0 = pmi2Rank(0);
        RawPmiClient r1 = pmi2Rank(1);
        if (what.equals("entered twice")) {
            r1.send2("ring", "ring-count", "1", "ring-left", "v", "ring-right", "v");
        }
        byte[] body = ("cmd=ring;" + fields).getBytes(StandardCharsets.US_ASCII);
        r1.sendRaw((String.format("%-6d", body.length) + new String(body, StandardCharsets.US_ASCII))
                .getBytes(StandardCharsets.US_ASCII));
        assertFailedAndOthersServed(r1, problem, r0);
    }

    @Test
    void finalizeWhileOthersWaitInTheRingIsReportedInsteadOfHanging() throws IOException {
        start(ProcessMapping.singleNode(2));
        RawPmiClient r0 = pmi2Rank(0);
        RawPmiClient r1 = pmi2Rank(1);
        r0.send2("ring", "ring-count", "1", "ring-left", "v", "ring-right", "v");
        assertEquals("finalize-response", r1.call2("finalize").command());
        assertEquals("finalized 1", events.next());
        // the two connections race: whichever the server reads second is the one reported
        String event = events.next();
        assertTrue(event.startsWith("protocolError 1 finalized while 1 rank(s) wait in the PMI ring")
                || event.startsWith("protocolError 0 entered the PMI ring after rank 1 had finalized"), event);
    }

    /** Both dialects' clients of a job of two, rank 0 over PMI-1 and rank 1 over PMI-2. */
    private List<PmiClient> pmi1AndPmi2Ranks() {
        return List.of(Pmi1Client.overPort(portOf(), 0, true, SECRET),
                Pmi2Client.overPort(portOf(), 1, Map.of(PmiVariables.SECRET, SECRET)));
    }

    private static void barrier(List<PmiClient> ranks) throws Exception {
        Thread other = new Thread(ranks.get(1)::barrier);
        other.start();
        ranks.get(0).barrier();
        other.join(5000);
    }

    @Test
    void publishedKeysAreReadFromSharedMemoryWithoutARequestAndCountedAsGets() throws Exception {
        start(ProcessMapping.singleNode(2));
        String dir = Files.isDirectory(Path.of("/dev/shm")) ? "/dev/shm" : System.getProperty("java.io.tmpdir");
        Path table = Path.of(dir, "mpj-kvs-" + KVS);
        List<PmiClient> ranks = pmi1AndPmi2Ranks();
        try {
            ranks.get(0).put("card-0", "abc");
            assertTrue(Files.exists(table));
            barrier(ranks);
            assertFalse(Files.exists(table), "every rank mapped it before the barrier, which removes the file");
            for (PmiClient rank : ranks) {
                long sent = rank.counters().bytesSent();
                long gets = rank.counters().gets();
                assertEquals("abc", rank.get("card-0"));
                assertEquals(sent, rank.counters().bytesSent(), "no request went to the server");
                assertEquals(gets + 1, rank.counters().gets());
                assertNull(rank.get("card-1"), "a key nobody put is asked of the server, which has none");
                assertTrue(rank.counters().bytesSent() > sent);
            }
        } finally {
            ranks.forEach(PmiClient::close);
        }
    }

    @Test
    void theProcessMappingIsReadFromSharedMemoryWithoutARequest() throws Exception {
        start(ProcessMapping.singleNode(2));
        List<PmiClient> ranks = pmi1AndPmi2Ranks();
        try {
            for (PmiClient rank : ranks) {
                long sent = rank.counters().bytesSent();
                assertEquals("(vector,(0,1,2))", rank.processMapping());
                assertEquals(sent, rank.counters().bytesSent(), "no request went to the server");
            }
        } finally {
            ranks.forEach(PmiClient::close);
        }
    }

    @Test
    void aPutReachesTheSharedTableOnlyWithTheNextBarrier() throws Exception {
        start(ProcessMapping.singleNode(2));
        List<PmiClient> ranks = pmi1AndPmi2Ranks();
        try {
            ranks.get(0).put("k", "v1");
            barrier(ranks);
            ranks.get(0).put("k", "v2");
            assertEquals("v1", ranks.get(1).get("k"));
            barrier(ranks);
            assertEquals("v2", ranks.get(1).get("k"));
        } finally {
            ranks.forEach(PmiClient::close);
        }
    }

    @Test
    void closingTheServerRemovesItsSharedTable() throws Exception {
        start(ProcessMapping.singleNode(1));
        String maxes = rank(0).call("get_maxes").get("mpj_kvs_table");
        assertTrue(Files.exists(Path.of(maxes)), maxes);
        server.close();
        assertFalse(Files.exists(Path.of(maxes)), maxes + " is left behind");
    }

    /** Values of 600 characters, so the PMI-1 reply spans several lines and the PMI-2 one several frames. */
    private static String allgatherValue(int rank) {
        return Character.toString('a' + rank).repeat(600);
    }

    @Test
    void allgatherGivesEveryRankEveryValueInRankOrderWhateverItsDialect() throws Exception {
        start(ProcessMapping.blocks(3, 2));
        try (Pmi1Client zero = Pmi1Client.overPort(server.portVariable(), 0, true, SECRET);
             Pmi2Client one = Pmi2Client.overPort(server.portVariable(), 1, Map.of(PmiVariables.SECRET, SECRET));
             Pmi1Client two = Pmi1Client.overPort(server.portVariable(), 2, false, SECRET)) {
            List<PmiClient> ranks = List.of(zero, one, two);
            assertTrue(ranks.stream().allMatch(PmiClient::hasAllgather),
                    "mpjrun offers its allgather in both dialects");
            ExecutorService threads = Executors.newFixedThreadPool(3);
            try {
                List<Future<List<String>>> results = new ArrayList<>();
                for (PmiClient rank : ranks) {
                    results.add(threads.submit(() -> rank.allgather(allgatherValue(rank.rank()))));
                }
                List<String> expected = List.of(allgatherValue(0), allgatherValue(1), allgatherValue(2));
                for (Future<List<String>> result : results) {
                    assertEquals(expected, result.get(10, TimeUnit.SECONDS));
                }
            } finally {
                threads.shutdownNow();
            }
            assertEquals(List.of(1L, 1L, 1L), ranks.stream().map(r -> r.counters().allgathers()).toList());
            assertEquals(List.of(0L, 0L, 0L), ranks.stream().map(r -> r.counters().gets()).toList());
        }
    }

    @Test
    void allgatherAnswersNobodyUntilEveryRankEntersAndEchoesThrid() throws IOException {
        start(ProcessMapping.singleNode(2));
        RawPmiClient r0 = pmi2Rank(0);
        RawPmiClient r1 = pmi2Rank(1);
        r0.send2("mpj-allgather", "value", "x0", "thrid", "0x5");
        assertTrue(r0.silentFor(300), "the allgather waits for rank 1");
        r1.send2("mpj-allgather", "value", "x1");
        assertEquals("cmd=mpj-allgather-response;rc=0;count=2;thrid=0x5;", r0.frame().toString());
        assertEquals("cmd=mpj-allgather-values;values=x0,x1;", r0.frame().toString());
        assertEquals("cmd=mpj-allgather-response;rc=0;count=2;", r1.frame().toString());
        assertEquals("cmd=mpj-allgather-values;values=x0,x1;", r1.frame().toString());
    }

    @Test
    void allgatherValueWithACommaFailsTheRank() throws IOException {
        start(ProcessMapping.singleNode(2));
        RawPmiClient r0 = rank(0);
        r0.send(Pmi1Message.of("mpj_allgather", "value", "a,b"));
        assertEquals("protocolError 0 entered the PMI allgather with an allgather value with a ','", events.next());
    }

    @Test
    void finalizingWhileOthersWaitInTheAllgatherFailsTheJob() throws IOException {
        start(ProcessMapping.singleNode(2));
        RawPmiClient r0 = rank(0);
        RawPmiClient r1 = rank(1);
        r0.send(Pmi1Message.of("mpj_allgather", "value", "v0"));
        assertTrue(r0.silentFor(200), "the allgather waits for rank 1");
        r1.send(Pmi1Message.of("finalize"));
        assertEquals("finalized 1", events.next());
        assertEquals("protocolError 1 finalized while 1 rank(s) wait in the PMI allgather that can now never"
                + " complete", events.next());
    }

    @Test
    void jobQueriesAnswerWithTheJobsValues() throws IOException {
        start(ProcessMapping.singleNode(5));
        RawPmiClient c = rank(4);
        assertTrue(c.call("get_maxes").toString().startsWith(
                "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024 mpj_allgather=1 mpj_kvs_table=/"));
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

        String event = events.next();
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
        String event = events.next();
        assertTrue(event.startsWith("protocolError 0 sent a malformed PMI line: longer than 1024 bytes"), event);
    }

    @Test
    void commandsBeforeInitackAreRejectedAsUnidentified() throws IOException {
        start(ProcessMapping.singleNode(1));
        RawPmiClient c = client();
        c.sendRaw("cmd=init pmi_version=1 pmi_subversion=1\n".getBytes(StandardCharsets.US_ASCII));
        String event = events.next();
        assertTrue(event.startsWith("rejected a PMI connection from 127.0.0.1: it sent cmd=init before identifying"
                + " itself"), event);
        assertClosedAndCounted(c, 1);
    }

    @Test
    void twoConnectionsCannotClaimTheSameRank() throws IOException {
        start(ProcessMapping.singleNode(2));
        rank(1);
        RawPmiClient second = client();
        second.send(Pmi1Message.of("initack", "pmiid", "1"));
        String event = events.next();
        assertTrue(event.startsWith("rejected a PMI connection from 127.0.0.1: it claimed pmiid=1, which another"
                + " connection already holds"), event);
        assertClosedAndCounted(second, 1);
    }

    @Test
    void finalizeIsAcknowledgedAndAFollowingCloseIsNoFailure() throws IOException {
        start(ProcessMapping.singleNode(1));
        RawPmiClient c = rank(0);
        assertEquals("cmd=finalize_ack", c.call("finalize").toString());
        assertEquals("finalized 0", events.next());
        c.close();
        assertNull(events.poll(300), "closing after finalize reports nothing");
    }

    @Test
    void closeBeforeFinalizeIsReportedAsAnEarlyDisconnect() throws IOException {
        start(ProcessMapping.singleNode(2));
        rank(0);
        rank(1).close();
        assertEquals("disconnected 1", events.next());
    }

    @Test
    void abortIsReportedWithItsExitCode() throws IOException {
        start(ProcessMapping.singleNode(4));
        RawPmiClient c = rank(2);
        c.send(Pmi1Message.of("abort", "exitcode", "3"));
        assertEquals("aborted 2 3", events.next());
        assertTrue(c.silentFor(200), "abort has no reply");
    }

    @Test
    void barrierAfterARankFinalizedIsReportedInsteadOfHanging() throws IOException {
        start(ProcessMapping.singleNode(2));
        RawPmiClient r0 = rank(0);
        RawPmiClient r1 = rank(1);
        r0.call("finalize");
        assertEquals("finalized 0", events.next());
        r1.send(Pmi1Message.of("barrier_in"));
        String event = events.next();
        assertTrue(event.startsWith("protocolError 1 entered a PMI barrier after rank 0 had finalized"), event);
    }

    // ---- helpers ----

    /** Rank 1 failed with a protocol error saying {@code problem}, its connection closed; {@code other} is served. */
    private void assertFailedAndOthersServed(RawPmiClient failed, String problem, RawPmiClient other) {
        String event = events.next();
        assertTrue(event.startsWith("protocolError 1 ") && event.contains(problem), event);
        assertNull(failed.readLine(), "the offending connection is closed");
        assertEquals("kvs-put-response", other.call2("kvs-put", "key", "k", "value", "v").command());
    }

    private void start(ProcessMapping mapping) throws IOException {
        server = new PmiServer(mapping, KVS, SECRET, Duration.ofSeconds(60), events);
        server.start();
    }

    private String portOf() {
        try {
            return server.portVariable();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A connection that has shown the job's secret. */
    private RawPmiClient client() throws IOException {
        RawPmiClient c = RawPmiClient.connect(server.portVariable(), 5000, SECRET);
        clients.add(c);
        return c;
    }

    /** The server closed {@code c}, and has rejected {@code count} connections in all. */
    private void assertClosedAndCounted(RawPmiClient c, long count) {
        assertNull(c.readLineOrReset(), "the connection is closed");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.rejectedConnections() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(count, server.rejectedConnections());
    }

    /** A connection that has identified itself as {@code rank}; its "connected" event is consumed. */
    private RawPmiClient rank(int rank) throws IOException {
        RawPmiClient c = client();
        c.initack(rank);
        assertEquals("connected " + rank, events.next());
        return c;
    }

    /** A connection of {@code rank} past {@code init pmi_version=2} and {@code fullinit}. */
    private RawPmiClient pmi2Rank(int rank) throws IOException {
        RawPmiClient c = rank(rank);
        assertEquals(0, c.call("init", "pmi_version", "2", "pmi_subversion", "0").rc());
        assertEquals(0, c.call2("fullinit", "pmirank", Integer.toString(rank), "threaded", "FALSE").rc());
        return c;
    }
}
