package dev.mpj.runtime.pmi;

import static dev.mpj.runtime.pmi.ScriptedPmiServer.KVS;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mpj.runtime.pmi.wire.PmiException;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The PMI-1 client against a scripted server that answers as Hydra 4.0.2 or Slurm 22.05 do (PMI.md §2.2). */
@Timeout(20)
class Pmi1ClientTest {
    private static final String PUT_ADDR_0 = "cmd=put kvsname=" + KVS + " key=addr-0 value=0a0b";
    private static final String GET_ADDR_1 = "cmd=get kvsname=" + KVS + " key=addr-1";
    private static final String GET_MAPPING = "cmd=get kvsname=" + KVS + " key=PMI_process_mapping";

    /** Starts the server, runs the conversation as rank 0 of 2, closes the client and checks the script. */
    private static void converse(ScriptedPmiServer server, ThrowingConsumer<Pmi1Client> conversation)
            throws Throwable {
        try (server) {
            server.start();
            try (Pmi1Client client = connect(server, 0, 2)) {
                conversation.accept(client);
            }
            server.verify();
        }
    }

    private static Pmi1Client connect(ScriptedPmiServer server, int rank, int size) throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        return new Pmi1Client(socket.getInputStream(), socket.getOutputStream(), socket, rank, size);
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void hydraAndSlurmOfferNoAllgatherAndAskingForOneFailsWithoutSendingIt(PmiServerStyle style) throws Throwable {
        converse(new ScriptedPmiServer().expectInit(style), client -> {
            assertEquals(false, client.hasAllgather());
            PmiException e = assertThrows(PmiException.class, () -> client.allgather("v"));
            assertTrue(e.getMessage().contains("offers no allgather"), e.getMessage());
        });
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void initLearnsKvsNameAndUsesMpichValueLimit(PmiServerStyle style) throws Throwable {
        converse(new ScriptedPmiServer().expectInit(style), client -> assertAll(
                () -> assertEquals(0, client.rank()),
                () -> assertEquals(2, client.size()),
                () -> assertEquals(KVS, client.jobId()),
                () -> assertEquals(674, client.maxValueLength()),
                () -> assertEquals("pmi1", client.dialect())));
    }

    @Test
    void constructorRejectsRankOutsideSize() throws Throwable {
        try (ScriptedPmiServer server = new ScriptedPmiServer()) {
            server.start();
            assertThrows(PmiException.class, () -> connect(server, 2, 2));
            server.verify(); // the client closed without sending anything
        }
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void splitBarrierSendsBarrierInAtBeginAndReadsBarrierOutAtEnd(PmiServerStyle style) throws Throwable {
        converse(new ScriptedPmiServer().expectInit(style)
                .expect("cmd=barrier_in", style.barrierOut())
                .expect(GET_ADDR_1, style.getFound("v")), client -> {
                    client.barrierBegin();
                    PmiException e = assertThrows(PmiException.class, () -> client.get("addr-1"));
                    assertTrue(e.getMessage().contains("split barrier"), e.getMessage());
                    client.barrierEnd();
                    assertEquals(1, client.counters().barriers());
                    assertEquals("v", client.get("addr-1"));
                });
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void putBarrierGetAndFinalizeFollowTheWireProtocol(PmiServerStyle style) throws Throwable {
        converse(new ScriptedPmiServer().expectInit(style)
                .expect(PUT_ADDR_0, style.putResult())
                .expect("cmd=barrier_in", style.barrierOut())
                .expect(GET_ADDR_1, style.getFound("a=b=c"))
                .expect("cmd=finalize", style.finalizeAck()), client -> {
                    client.put("addr-0", "0a0b");
                    client.barrier();
                    assertEquals("a=b=c", client.get("addr-1"));
                    client.finish();
                });
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void missingKeyGivesNull(PmiServerStyle style) throws Throwable {
        converse(new ScriptedPmiServer().expectInit(style).expect(GET_ADDR_1, style.getMissing("addr-1")),
                client -> assertNull(client.get("addr-1")));
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void emptyValueIsFoundAndEmpty(PmiServerStyle style) throws Throwable {
        converse(new ScriptedPmiServer().expectInit(style).expect(GET_ADDR_1, style.getFound("")),
                client -> assertEquals("", client.get("addr-1")));
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void processMappingIsFetchedOnceAndCached(PmiServerStyle style) throws Throwable {
        converse(new ScriptedPmiServer().expectInit(style).expect(GET_MAPPING, style.getFound("(vector,(0,2,1))")),
                client -> {
                    assertEquals("(vector,(0,2,1))", client.processMapping());
                    assertEquals("(vector,(0,2,1))", client.processMapping());
                });
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void processMappingIsEmptyWhenTheServerHasNone(PmiServerStyle style) throws Throwable {
        converse(new ScriptedPmiServer().expectInit(style)
                        .expect(GET_MAPPING, style.getMissing("PMI_process_mapping")),
                client -> assertEquals("", client.processMapping()));
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void unexpectedReplyCommandFailsNamingBoth(PmiServerStyle style) throws Throwable {
        converse(new ScriptedPmiServer().expectInit(style).expect("cmd=barrier_in", style.putResult()), client -> {
            PmiException e = assertThrows(PmiException.class, client::barrier);
            assertTrue(e.getMessage().contains("barrier_out") && e.getMessage().contains("put_result"),
                    e.getMessage());
        });
    }

    @Test
    void serverClosingTheConnectionFails() throws Throwable {
        converse(new ScriptedPmiServer().expectInit(PmiServerStyle.HYDRA).expectThenClose("cmd=barrier_in"),
                client -> {
                    PmiException e = assertThrows(PmiException.class, client::barrier);
                    assertTrue(e.getMessage().contains("process manager closed the PMI connection"),
                            e.getMessage());
                });
    }

    @Test
    void refusedInitFailsAndCloses() throws Throwable {
        try (ScriptedPmiServer server = new ScriptedPmiServer()
                .expect("cmd=init pmi_version=1 pmi_subversion=1", "cmd=response_to_init rc=-1")) {
            server.start();
            PmiException e = assertThrows(PmiException.class, () -> connect(server, 0, 2));
            assertTrue(e.getMessage().contains("refused"), e.getMessage());
            server.verify(); // passes only if the client closed its end
        }
    }

    @Test
    void putRejectedByTheServerFails() throws Throwable {
        converse(new ScriptedPmiServer().expectInit(PmiServerStyle.SLURM).expect(PUT_ADDR_0, "cmd=put_result rc=1"),
                client -> assertThrows(PmiException.class, () -> client.put("addr-0", "0a0b")));
    }

    @Test
    void overlongReplyLineFails() throws Throwable {
        converse(new ScriptedPmiServer().expectInit(PmiServerStyle.HYDRA)
                .expect(GET_ADDR_1, PmiServerStyle.HYDRA.getFound("x".repeat(1100))), client -> {
                    PmiException e = assertThrows(PmiException.class, () -> client.get("addr-1"));
                    assertTrue(e.getMessage().contains("longer than 1023"), e.getMessage());
                });
    }

    @Test
    void tooLongKeyOrValueIsRejectedBeforeAnythingIsSent() throws Throwable {
        // The server's next request must be finalize, not one of the rejected commands.
        converse(new ScriptedPmiServer().expectInit(PmiServerStyle.HYDRA)
                .expect("cmd=finalize", PmiServerStyle.HYDRA.finalizeAck()), client -> {
                    assertThrows(PmiException.class, () -> client.put("k".repeat(64), "v"));
                    assertThrows(PmiException.class, () -> client.get("k".repeat(64)));
                    assertThrows(PmiException.class, () -> client.put("key", "v".repeat(675)));
                    assertThrows(PmiException.class, () -> client.put("key", "has space"));
                    assertThrows(PmiException.class, () -> client.put("PMI_process_mapping", "x"));
                    client.finish();
                });
    }

    @Test
    void abortSendsTheExitCodeAndCloses() throws Throwable {
        converse(new ScriptedPmiServer().expectInit(PmiServerStyle.HYDRA).expect("cmd=abort exitcode=7"),
                client -> {
                    client.abort(7, "bad things");
                    assertThrows(PmiException.class, client::barrier);
                });
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void portModeHandshakeGivesRankAndSize(PmiServerStyle style) throws Throwable {
        // Set lines in another order than Hydra's, to show they are matched by content.
        try (ScriptedPmiServer server = new ScriptedPmiServer()
                .expect("cmd=initack pmiid=3", "cmd=initack", "cmd=set rank=3", "cmd=set debug=0", "cmd=set size=5")
                .expectInit(style)) {
            server.start();
            try (Pmi1Client client = Pmi1Client.overPort(server.hostPort(), 3)) {
                assertEquals(3, client.rank());
                assertEquals(5, client.size());
                assertEquals(KVS, client.jobId());
            }
            server.verify();
        }
    }

    @Test
    void portModeHandshakeWithoutRankFails() throws Throwable {
        try (ScriptedPmiServer server = new ScriptedPmiServer()
                .expect("cmd=initack pmiid=0", "cmd=initack", "cmd=set size=2", "cmd=set debug=0", "cmd=set debug=0")) {
            server.start();
            PmiException e = assertThrows(PmiException.class, () -> Pmi1Client.overPort(server.hostPort(), 0));
            assertTrue(e.getMessage().contains("rank"), e.getMessage());
            server.verify();
        }
    }

    @Test
    void malformedPortIsRejected() {
        assertThrows(PmiException.class, () -> Pmi1Client.overPort("localhost", 0));
        assertThrows(PmiException.class, () -> Pmi1Client.overPort("localhost:http", 0));
        assertThrows(PmiException.class, () -> Pmi1Client.overPort("localhost:70000", 0));
    }

    @Test
    void eachCommandIsWrittenWholeInOneWrite() throws Throwable {
        List<String> writes = new ArrayList<>();
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(PmiServerStyle.HYDRA)
                .expect(PUT_ADDR_0, PmiServerStyle.HYDRA.putResult())
                .expect("cmd=barrier_in", PmiServerStyle.HYDRA.barrierOut())
                .expect(GET_ADDR_1, PmiServerStyle.HYDRA.getFound("x"))
                .expect("cmd=finalize", PmiServerStyle.HYDRA.finalizeAck())) {
            server.start();
            Socket socket = new Socket("127.0.0.1", server.port());
            OutputStream recording = new FilterOutputStream(socket.getOutputStream()) {
                @Override
                public void write(int b) {
                    throw new AssertionError("byte-wise write");
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    writes.add(new String(b, off, len, StandardCharsets.US_ASCII));
                    out.write(b, off, len);
                }
            };
            try (Pmi1Client client = new Pmi1Client(socket.getInputStream(), recording, socket, 0, 2)) {
                client.put("addr-0", "0a0b");
                client.barrier();
                client.get("addr-1");
                client.finish();
            }
            server.verify();
            assertEquals(List.of("cmd=init pmi_version=1 pmi_subversion=1\n", "cmd=get_maxes\n",
                    "cmd=get_my_kvsname\n", PUT_ADDR_0 + "\n", "cmd=barrier_in\n", GET_ADDR_1 + "\n",
                    "cmd=finalize\n"), writes);
            for (String chunk : server.chunks()) {
                assertTrue(chunk.endsWith("\n") && chunk.indexOf('\n') == chunk.length() - 1,
                        "server read a partial or merged command: " + chunk);
            }
        }
    }

    @Test
    void countersCountOperationsAndBytesBothWays() throws Throwable {
        ScriptedPmiServer server = new ScriptedPmiServer().expectInit(PmiServerStyle.SLURM)
                .expect(PUT_ADDR_0, PmiServerStyle.SLURM.putResult())
                .expect("cmd=barrier_in", PmiServerStyle.SLURM.barrierOut())
                .expect(GET_ADDR_1, PmiServerStyle.SLURM.getFound("x"))
                .expect(GET_MAPPING, PmiServerStyle.SLURM.getFound("(vector,(0,1,2))"))
                .expect("cmd=finalize", PmiServerStyle.SLURM.finalizeAck());
        PmiCounters[] counters = new PmiCounters[1];
        converse(server, client -> {
            client.put("addr-0", "0a0b");
            client.barrier();
            client.get("addr-1");
            client.processMapping();
            client.finish();
            counters[0] = client.counters();
        });
        PmiCounters c = counters[0];
        assertAll(
                () -> assertEquals(1, c.puts()),
                () -> assertEquals(2, c.gets()),
                () -> assertEquals(1, c.barriers()),
                () -> assertEquals(server.bytesReceived(), c.bytesSent()),
                () -> assertEquals(server.bytesSent(), c.bytesReceived()));
    }
}
