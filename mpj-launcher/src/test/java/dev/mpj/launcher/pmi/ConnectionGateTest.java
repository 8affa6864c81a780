package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.PmiSecret;
import dev.mpj.runtime.pmi.wire.ProcessMapping;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The PMI server serves only connections that show the job's secret, and no stranger can fail the job. */
@Timeout(20)
class ConnectionGateTest {
    private static final String KVS = "mpj_gate_kvs";
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

    @Test
    void aFalseInitackWithoutTheSecretIsRejectedAndTheRankStaysFree() throws IOException {
        start(ConnectionGate.Limits.forJob(2, Duration.ofSeconds(10)));
        RawPmiClient stranger = stranger();
        stranger.send(Pmi1Message.of("initack", "pmiid", "0"));
        assertNull(stranger.readLineOrReset(), "the stranger gets no answer but a closed connection");
        String event = events.next();
        assertTrue(event.startsWith("rejected a PMI connection from 127.0.0.1: it sent \"cmd=initack pmiid=0\""
                + " without showing the job's secret first"), event);
        assertEquals(1, server.rejectedConnections());

        RawPmiClient rank = RawPmiClient.connect(server.portVariable(), 5000, SECRET);
        clients.add(rank);
        assertEquals("cmd=set rank=0", rank.initack(0).get(2).toString());
        assertEquals("connected 0", events.next());
    }

    @Test
    void aWrongSecretAndGarbageAreRejectedWithoutFailingTheJobAndLoggedOnce() throws IOException {
        start(ConnectionGate.Limits.forJob(2, Duration.ofSeconds(10)));
        RawPmiClient wrong = stranger();
        wrong.send(PmiSecret.message(PmiSecret.newSecret()));
        assertNull(wrong.readLineOrReset());
        assertTrue(events.next().startsWith("rejected a PMI connection from 127.0.0.1: it sent \"cmd=mpj_secret"));
        for (String garbage : new String[] {"\u0000\u00ff\n", "cmd=\n", "=\n", "000012cmd=fullinit;\n"}) {
            RawPmiClient c = stranger();
            c.sendRaw(garbage.getBytes(StandardCharsets.ISO_8859_1));
            assertNull(c.readLineOrReset(), garbage);
        }
        RawPmiClient tooLong = stranger();
        tooLong.sendRaw(("cmd=get key=" + "k".repeat(2000) + "\n").getBytes(StandardCharsets.US_ASCII));
        assertNull(tooLong.readLineOrReset());
        awaitRejected(6);
        assertNull(events.poll(300), "later rejections from the same address wait for a summary: " + events);
    }

    @Test
    void beyondTheCapANewStrangerIsClosedAtOnce() throws IOException {
        start(new ConnectionGate.Limits(3, Duration.ofSeconds(30)));
        for (int i = 0; i < 3; i++) {
            stranger();
        }
        RawPmiClient fourth = stranger();
        assertNull(fourth.readLineOrReset(), "closed at once");
        assertTrue(events.next().contains("came while 3 connections were waiting to show the secret"));
        assertEquals(1, server.rejectedConnections());
    }

    @Test
    void aConnectionThatDoesNotShowTheSecretWithinTheRanksInitTimeoutIsClosed() throws IOException {
        server = new PmiServer(ProcessMapping.singleNode(2), KVS, SECRET, Duration.ofMillis(300), events);
        server.start((ServerSocketChannel a) -> a.accept());
        RawPmiClient idle = RawPmiClient.connect(server.portVariable(), 5000);
        clients.add(idle);
        assertNull(idle.readLineOrReset(), "closed when its time is up");
        assertTrue(events.next().contains("did not show the job's secret within 300 ms"));
        assertEquals(1, server.rejectedConnections());
    }

    /** As mpjrun's rank supervisor opens a rank's connection before the rank's program gets to MPI.Init. */
    @Test
    void aConnectionThatShowedTheSecretMayIdentifyItselfLaterThanTheTimeout() throws Exception {
        server = new PmiServer(ProcessMapping.singleNode(2), KVS, SECRET, Duration.ofMillis(300), events);
        server.start((ServerSocketChannel a) -> a.accept());
        RawPmiClient late = RawPmiClient.connect(server.portVariable(), 5000, SECRET);
        clients.add(late);
        assertTrue(late.silentFor(900), "the connection was closed or answered before it asked anything");
        assertEquals("1", late.initack(1).stream().filter(m -> m.command().equals("set") && m.get("rank") != null)
                .findFirst().orElseThrow().get("rank"));
        assertEquals(0, server.rejectedConnections());
    }

    @Test
    void failedAcceptsPauseAcceptingAndTheServerStillServesARank() throws IOException {
        AtomicInteger failures = new AtomicInteger();
        server = new PmiServer(ProcessMapping.singleNode(1), KVS, SECRET, events,
                ConnectionGate.Limits.forJob(1, Duration.ofSeconds(10)));
        server.start(acceptor -> {
            if (failures.incrementAndGet() <= 4) {
                throw new IOException("Too many open files");
            }
            return acceptor.accept();
        });
        RawPmiClient rank = RawPmiClient.connect(server.portVariable(), 10000, SECRET);
        clients.add(rank);
        assertEquals("cmd=initack", rank.initack(0).get(0).toString());
        assertEquals("cannot accept PMI connections (Too many open files); retrying after 50 ms, backing off to"
                + " 1000 ms", events.next(), "the first failure of a run is told, once");
        assertEquals("connected 0", events.next());
        assertTrue(failures.get() > 4);
    }

    // ---- helpers ----

    private void start(ConnectionGate.Limits limits) throws IOException {
        server = new PmiServer(ProcessMapping.singleNode(2), KVS, SECRET, events, limits);
        server.start((ServerSocketChannel a) -> a.accept());
    }

    private RawPmiClient stranger() throws IOException {
        RawPmiClient c = RawPmiClient.connect(server.portVariable(), 5000);
        clients.add(c);
        return c;
    }

    private void awaitRejected(long count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.rejectedConnections() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(count, server.rejectedConnections());
    }
}
