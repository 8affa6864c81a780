package dev.mpj.runtime.pmi;

import static dev.mpj.runtime.pmi.ScriptedPmiServer.KVS;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(20)
class Pmi1ClientTest {
    private static final String PUT_ADDR_0 = "cmd=put kvsname=" + KVS + " key=addr-0 value=0a0b";
    private static final String GET_ADDR_1 = "cmd=get kvsname=" + KVS + " key=addr-1";
    private static final String GET_MAPPING = "cmd=get kvsname=" + KVS + " key=PMI_process_mapping";

    private static Pmi1Client connect(ScriptedPmiServer server, int rank, int size) throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        return new Pmi1Client(socket.getInputStream(), socket.getOutputStream(), socket, rank, size);
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void initLearnsKvsNameAndUsesMpichValueLimit(PmiServerStyle style) throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(style).start();
                Pmi1Client client = connect(server, 1, 4)) {
            assertAll(
                    () -> assertEquals(1, client.rank()),
                    () -> assertEquals(4, client.size()),
                    () -> assertEquals(KVS, client.jobId()),
                    () -> assertEquals(674, client.maxValueLength()),
                    () -> assertEquals("pmi1", client.dialect()));
            client.close();
            server.verify();
        }
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void putBarrierGetAndFinalizeFollowTheWireProtocol(PmiServerStyle style) throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(style)
                .expect(PUT_ADDR_0, style.putResult())
                .expect("cmd=barrier_in", style.barrierOut())
                .expect(GET_ADDR_1, style.getFound("a=b=c"))
                .expect("cmd=finalize", style.finalizeAck())
                .start();
                Pmi1Client client = connect(server, 0, 2)) {
            client.put("addr-0", "0a0b");
            client.barrier();
            assertEquals("a=b=c", client.get("addr-1"));
            client.finish();
            server.verify();
        }
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void missingKeyGivesNull(PmiServerStyle style) throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(style)
                .expect(GET_ADDR_1, style.getMissing("addr-1"))
                .start();
                Pmi1Client client = connect(server, 0, 2)) {
            assertNull(client.get("addr-1"));
            client.close();
            server.verify();
        }
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void emptyValueIsFoundAndEmpty(PmiServerStyle style) throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(style)
                .expect(GET_ADDR_1, style.getFound(""))
                .start();
                Pmi1Client client = connect(server, 0, 2)) {
            assertEquals("", client.get("addr-1"));
            client.close();
            server.verify();
        }
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void processMappingIsFetchedOnceAndCached(PmiServerStyle style) throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(style)
                .expect(GET_MAPPING, style.getFound("(vector,(0,2,1))"))
                .start();
                Pmi1Client client = connect(server, 0, 2)) {
            assertEquals("(vector,(0,2,1))", client.processMapping());
            assertEquals("(vector,(0,2,1))", client.processMapping());
            client.close();
            server.verify();
        }
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void processMappingIsEmptyWhenTheServerHasNone(PmiServerStyle style) throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(style)
                .expect(GET_MAPPING, style.getMissing("PMI_process_mapping"))
                .start();
                Pmi1Client client = connect(server, 0, 2)) {
            assertEquals("", client.processMapping());
            client.close();
            server.verify();
        }
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void unexpectedReplyCommandFailsNamingBoth(PmiServerStyle style) throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(style)
                .expect("cmd=barrier_in", style.putResult())
                .start();
                Pmi1Client client = connect(server, 0, 2)) {
            PmiException e = assertThrows(PmiException.class, client::barrier);
            assertTrue(e.getMessage().contains("barrier_out") && e.getMessage().contains("put_result"),
                    e.getMessage());
            client.close();
            server.verify();
        }
    }

    @Test
    void serverClosingTheConnectionFails() throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(PmiServerStyle.HYDRA)
                .expectThenClose("cmd=barrier_in")
                .start();
                Pmi1Client client = connect(server, 0, 2)) {
            PmiException e = assertThrows(PmiException.class, client::barrier);
            assertTrue(e.getMessage().contains("process manager closed the PMI connection"), e.getMessage());
            server.verify();
        }
    }

    @Test
    void refusedInitFailsAndCloses() throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer()
                .expect("cmd=init pmi_version=1 pmi_subversion=1", "cmd=response_to_init rc=-1")
                .start()) {
            PmiException e = assertThrows(PmiException.class, () -> connect(server, 0, 2));
            assertTrue(e.getMessage().contains("refused"), e.getMessage());
            server.verify(); // passes only if the client closed its end
        }
    }

    @Test
    void putRejectedByTheServerFails() throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(PmiServerStyle.SLURM)
                .expect(PUT_ADDR_0, "cmd=put_result rc=1")
                .start();
                Pmi1Client client = connect(server, 0, 2)) {
            assertThrows(PmiException.class, () -> client.put("addr-0", "0a0b"));
            client.close();
            server.verify();
        }
    }

    @Test
    void overlongReplyLineFails() throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(PmiServerStyle.HYDRA)
                .expect(GET_ADDR_1, PmiServerStyle.HYDRA.getFound("x".repeat(1100)))
                .start();
                Pmi1Client client = connect(server, 0, 2)) {
            PmiException e = assertThrows(PmiException.class, () -> client.get("addr-1"));
            assertTrue(e.getMessage().contains("longer than 1023"), e.getMessage());
            client.close();
            server.verify();
        }
    }

    @Test
    void tooLongKeyOrValueIsRejectedBeforeAnythingIsSent() throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(PmiServerStyle.HYDRA)
                .expect("cmd=finalize", PmiServerStyle.HYDRA.finalizeAck())
                .start();
                Pmi1Client client = connect(server, 0, 2)) {
            assertThrows(PmiException.class, () -> client.put("k".repeat(64), "v"));
            assertThrows(PmiException.class, () -> client.get("k".repeat(64)));
            assertThrows(PmiException.class, () -> client.put("key", "v".repeat(675)));
            assertThrows(PmiException.class, () -> client.put("key", "has space"));
            client.finish(); // the server's next request must be finalize, not one of the puts
            server.verify();
        }
    }

    @Test
    void abortSendsTheExitCodeAndCloses() throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(PmiServerStyle.HYDRA)
                .expect("cmd=abort exitcode=7")
                .start();
                Pmi1Client client = connect(server, 0, 2)) {
            client.abort(7, "bad things");
            server.verify();
            assertThrows(PmiException.class, client::barrier);
        }
    }

    @ParameterizedTest
    @EnumSource(PmiServerStyle.class)
    void portModeHandshakeGivesRankAndSize(PmiServerStyle style) throws Exception {
        // Set lines in another order than Hydra's, to show they are matched by content.
        try (ScriptedPmiServer server = new ScriptedPmiServer()
                .expect("cmd=initack pmiid=3", "cmd=initack", "cmd=set rank=3", "cmd=set debug=0", "cmd=set size=5")
                .expectInit(style)
                .start();
                Pmi1Client client = Pmi1Client.overPort(server.hostPort(), 3)) {
            assertEquals(3, client.rank());
            assertEquals(5, client.size());
            assertEquals(KVS, client.jobId());
            client.close();
            server.verify();
        }
    }

    @Test
    void portModeHandshakeWithoutRankFails() throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer()
                .expect("cmd=initack pmiid=0", "cmd=initack", "cmd=set size=2", "cmd=set debug=0", "cmd=set debug=0")
                .start()) {
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
    void eachCommandIsWrittenWholeInOneWrite() throws Exception {
        List<String> writes = new ArrayList<>();
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(PmiServerStyle.HYDRA)
                .expect(PUT_ADDR_0, PmiServerStyle.HYDRA.putResult())
                .expect("cmd=barrier_in", PmiServerStyle.HYDRA.barrierOut())
                .expect(GET_ADDR_1, PmiServerStyle.HYDRA.getFound("x"))
                .expect("cmd=finalize", PmiServerStyle.HYDRA.finalizeAck())
                .start();
                Socket socket = new Socket("127.0.0.1", server.port())) {
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
            Pmi1Client client = new Pmi1Client(socket.getInputStream(), recording, socket, 0, 2);
            client.put("addr-0", "0a0b");
            client.barrier();
            client.get("addr-1");
            client.finish();
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
    void countersCountOperationsAndBytesBothWays() throws Exception {
        try (ScriptedPmiServer server = new ScriptedPmiServer().expectInit(PmiServerStyle.SLURM)
                .expect(PUT_ADDR_0, PmiServerStyle.SLURM.putResult())
                .expect("cmd=barrier_in", PmiServerStyle.SLURM.barrierOut())
                .expect(GET_ADDR_1, PmiServerStyle.SLURM.getFound("x"))
                .expect(GET_MAPPING, PmiServerStyle.SLURM.getFound("(vector,(0,1,2))"))
                .expect("cmd=finalize", PmiServerStyle.SLURM.finalizeAck())
                .start();
                Pmi1Client client = connect(server, 0, 2)) {
            client.put("addr-0", "0a0b");
            client.barrier();
            client.get("addr-1");
            client.processMapping();
            client.finish();
            server.verify();
            PmiCounters c = client.counters();
            assertAll(
                    () -> assertEquals(1, c.puts()),
                    () -> assertEquals(2, c.gets()),
                    () -> assertEquals(1, c.barriers()),
                    () -> assertEquals(server.bytesReceived(), c.bytesSent()),
                    () -> assertEquals(server.bytesSent(), c.bytesReceived()));
        }
    }
}
