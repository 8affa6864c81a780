package dev.mpj.runtime.pmi;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mpj.runtime.pmi.wire.PmiException;

import java.io.IOException;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The PMI-2 client against a scripted server that frames and words its replies as Hydra 4.0.2 or Slurm 22.05. */
@Timeout(20)
class Pmi2ClientTest {
    private static final String JOB = "kvs_1109_0_1085937641_vm";
    private static final String FENCE = "cmd=kvs-fence;";
    private static final String PROBE = "cmd=kvs-get;jobid=" + JOB + ";srcid=-1;key=" + Pmi2Client.BARRIER_PROBE_KEY + ";";

    /** init, fullinit as rank 0 (with pmijobid 7.0) and job-getid, answered in the given style. */
    private static ScriptedPmiServer initialised(Pmi2Frames style) throws IOException {
        return new ScriptedPmiServer()
                .expect("cmd=init pmi_version=2 pmi_subversion=0", style.responseToInit())
                .expectFrame("cmd=fullinit;pmijobid=7.0;pmirank=0;threaded=FALSE;", style.fullinitResponse(0, 2))
                .expectFrame("cmd=job-getid;", style.jobId(JOB));
    }

    private static void converse(ScriptedPmiServer server, ThrowingConsumer<Pmi2Client> conversation)
            throws Throwable {
        try (server) {
            server.start();
            try (Pmi2Client client = connect(server)) {
                conversation.accept(client);
            }
            server.verify();
        }
    }

    private static Pmi2Client connect(ScriptedPmiServer server) throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        return new Pmi2Client(socket.getInputStream(), socket.getOutputStream(), socket, 0, "7.0");
    }

    @ParameterizedTest
    @EnumSource(Pmi2Frames.class)
    void initLearnsRankSizeAndJobIdWhateverThePadding(Pmi2Frames style) throws Throwable {
        converse(initialised(style), client -> assertAll(
                () -> assertEquals(0, client.rank()),
                () -> assertEquals(2, client.size()),
                () -> assertEquals(JOB, client.jobId()),
                () -> assertEquals("pmi2", client.dialect())));
    }

    @Test
    void aServerThatRefusesVersion2IsReportedAtInit() throws Throwable {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expect("cmd=init pmi_version=2 pmi_subversion=0",
                "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-1")) {
            server.start();
            PmiException e = assertThrows(PmiException.class, () -> connect(server));
            assertTrue(e.getMessage().contains("PMI 2.0"), e.getMessage());
            server.verify();
        }
    }

    @ParameterizedTest
    @EnumSource(Pmi2Frames.class)
    void jobAttributesGiveTheMappingAndTheUniverseSizeOrMinusOne(Pmi2Frames style) throws Throwable {
        converse(initialised(style)
                .expectFrame("cmd=info-getjobattr;key=PMI_process_mapping;",
                        style.found("info-getjobattr", "(vector,(0,2,2))"))
                .expectFrame("cmd=info-getjobattr;key=universeSize;", style.missing("info-getjobattr")),
                client -> {
                    assertEquals("(vector,(0,2,2))", client.processMapping());
                    assertEquals("(vector,(0,2,2))", client.processMapping()); // fetched once
                    assertEquals(-1, client.universeSize());
                });
    }

    @ParameterizedTest
    @EnumSource(Pmi2Frames.class)
    void putAndGetSendJobIdAndAnySourceAndCount(Pmi2Frames style) throws Throwable {
        converse(initialised(style)
                .expectFrame("cmd=kvs-put;key=addr-0;value=0a0b;", style.ok("kvs-put"))
                .expectFrame("cmd=kvs-get;jobid=" + JOB + ";srcid=-1;key=addr-1;", style.found("kvs-get", "0c0d"))
                .expectFrame("cmd=kvs-get;jobid=" + JOB + ";srcid=-1;key=addr-9;", style.missing("kvs-get")),
                client -> {
                    client.put("addr-0", "0a0b");
                    assertEquals("0c0d", client.get("addr-1"));
                    assertNull(client.get("addr-9"));
                    assertEquals(1, client.counters().puts());
                    assertEquals(2, client.counters().gets());
                });
    }

    @Test
    void newerHydrasRcOneWithoutFoundMeansNotFound() throws Throwable {
        converse(initialised(Pmi2Frames.HYDRA)
                .expectFrame("cmd=kvs-get;jobid=" + JOB + ";srcid=-1;key=addr-1;",
                        Pmi2Frames.HYDRA.frame("cmd=kvs-get-response;rc=1;")),
                client -> assertNull(client.get("addr-1")));
    }

    @Test
    void unknownReplyFieldsAndThridAreIgnored() throws Throwable {
        converse(initialised(Pmi2Frames.SLURM)
                .expectFrame("cmd=kvs-put;key=k;value=v;",
                        Pmi2Frames.SLURM.frame("cmd=kvs-put-response;thrid=0x1;rc=0;extra=yes;")),
                client -> client.put("k", "v"));
    }

    /** Hydra: the fence answers at once, the probe get is what waits for the late ranks. */
    @Test
    void barrierUnderHydraWaitsForTheProbeGetAfterTheImmediateFence() throws Throwable {
        CountDownLatch lastRankFenced = new CountDownLatch(1);
        ScriptedPmiServer server = initialised(Pmi2Frames.HYDRA)
                .expectFrame(FENCE, Pmi2Frames.HYDRA.ok("kvs-fence"))
                .expectFrame(PROBE, Pmi2Frames.HYDRA.missing("kvs-get"), lastRankFenced);
        converse(server, client -> {
            CompletableFuture<Void> barrier = CompletableFuture.runAsync(client::barrier);
            assertThrows(java.util.concurrent.TimeoutException.class, () -> barrier.get(300, TimeUnit.MILLISECONDS));
            assertEquals(List.of(FENCE, PROBE), server.requests().subList(3, 5));
            lastRankFenced.countDown();
            barrier.get(5, TimeUnit.SECONDS);
            assertEquals(1, client.counters().barriers());
            assertEquals(0, client.counters().gets());
        });
    }

    /** Slurm: the fence is the barrier; the probe is answered "not found" at once. */
    @Test
    void splitBarrierUnderSlurmSendsTheFenceAtBeginAndReadsItAtEnd() throws Throwable {
        converse(initialised(Pmi2Frames.SLURM)
                .expectFrame(FENCE, Pmi2Frames.SLURM.ok("kvs-fence"))
                .expectFrame(PROBE, Pmi2Frames.SLURM.missing("kvs-get")),
                client -> {
                    client.barrierBegin();
                    PmiException e = assertThrows(PmiException.class, () -> client.get("addr-1"));
                    assertTrue(e.getMessage().contains("split barrier"), e.getMessage());
                    client.barrierEnd();
                    assertEquals(1, client.counters().barriers());
                });
    }

    @Test
    void theProbeKeyCannotBePut() throws Throwable {
        converse(initialised(Pmi2Frames.HYDRA), client -> assertThrows(PmiException.class,
                () -> client.put(Pmi2Client.BARRIER_PROBE_KEY, "x")));
    }

    @Test
    void valuesWithSemicolonsAreRejectedBeforeSending() throws Throwable {
        converse(initialised(Pmi2Frames.HYDRA), client -> {
            PmiException e = assertThrows(PmiException.class, () -> client.put("k", "a;b"));
            assertTrue(e.getMessage().contains("'k'"), e.getMessage());
        });
    }

    @ParameterizedTest
    @EnumSource(Pmi2Frames.class)
    void nodeAttributesPutAndWaitForTheValue(Pmi2Frames style) throws Throwable {
        converse(initialised(style)
                .expectFrame("cmd=info-putnodeattr;key=seg;value=/dev/shm/x;", style.ok("info-putnodeattr"))
                .expectFrame("cmd=info-getnodeattr;key=seg;wait=TRUE;", style.found("info-getnodeattr", "/dev/shm/x"))
                .expectFrame("cmd=info-getnodeattr;key=other;wait=FALSE;", style.missing("info-getnodeattr")),
                client -> {
                    PmiNodeAttributes node = client.nodeAttributes();
                    node.put("seg", "/dev/shm/x");
                    assertEquals("/dev/shm/x", node.await("seg"));
                    assertNull(node.get("other"));
                });
    }

    /** As MPICH's PMIX_Ring: count 1 and the value on both sides; the reply fields in Slurm's order. */
    @Test
    void ringSendsTheValueOnBothSidesAndLearnsPositionAndNeighboursAndCountsIt() throws Throwable {
        converse(initialised(Pmi2Frames.SLURM)
                .expectFrame("cmd=ring;ring-count=1;ring-left=b0;ring-right=b0;",
                        Pmi2Frames.SLURM.frame("cmd=ring-response;rc=0;ring-count=1;ring-left=a1;ring-right=c1;")),
                client -> {
                    assertTrue(client.hasRing());
                    assertEquals(new RingNeighbours(1, 2, "a1", "c1"), client.ring("b0"));
                    assertEquals(1, client.counters().rings());
                    assertEquals(0, client.counters().gets() + client.counters().barriers());
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "refused          | cmd=ring-response;rc=14;",
            "no ring-right    | cmd=ring-response;rc=0;ring-count=0;ring-left=a;",
            "position outside | cmd=ring-response;rc=0;ring-count=2;ring-left=a;ring-right=a;"})
    void aRingReplyWithoutPositionOrNeighboursFailsTheCall(String what, String reply) throws Throwable {
        converse(initialised(Pmi2Frames.SLURM)
                .expectFrame("cmd=ring;ring-count=1;ring-left=v;ring-right=v;", Pmi2Frames.SLURM.frame(reply)),
                client -> assertThrows(PmiException.class, () -> client.ring("v")));
    }

    @Test
    void ringValuesAreCheckedBeforeSending() throws Throwable {
        converse(initialised(Pmi2Frames.SLURM), client -> {
            assertThrows(PmiException.class, () -> client.ring("a;b"));
            assertThrows(PmiException.class, () -> client.ring("v".repeat(675)));
        });
    }

    @Test
    void finishSendsFinalizeAndWaitsForItsReply() throws Throwable {
        converse(initialised(Pmi2Frames.SLURM).expectFrame("cmd=finalize;", Pmi2Frames.SLURM.ok("finalize")),
                Pmi2Client::finish);
    }

    @Test
    void abortCarriesTheMessageWithoutSemicolonsAndTheExitCode() throws Throwable {
        converse(initialised(Pmi2Frames.HYDRA)
                .expectFrame("cmd=abort;isworld=TRUE;msg=rank 0 failed  see log;exitcode=7;", ""),
                client -> client.abort(7, "rank 0 failed; see log"));
    }

    @Test
    void aLengthFieldThatIsNotANumberFailsTheCall() throws Throwable {
        converse(initialised(Pmi2Frames.HYDRA).expectFrame("cmd=kvs-put;key=k;value=v;", "12x456cmd=kvs-put"),
                client -> {
                    PmiException e = assertThrows(PmiException.class, () -> client.put("k", "v"));
                    assertTrue(e.getMessage().contains("length field"), e.getMessage());
                });
    }
}
