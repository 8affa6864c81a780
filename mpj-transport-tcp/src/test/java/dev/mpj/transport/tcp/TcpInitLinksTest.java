package dev.mpj.transport.tcp;

import dev.mpj.runtime.spi.ExchangeException;
import dev.mpj.runtime.spi.InitMessenger;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The node roots' init links over real loopback sockets: a ring allgather, and what they refuse. */
@Timeout(60)
class TcpInitLinksTest {
    private static final Settings SHORT_TIMEOUT = Settings.defaults().with(Setting.INIT_TIMEOUT, "2");
    private static final int BLOCK = 24;

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void ringAllgatherOverInitLinksGivesEveryRankEveryBlock(int size) throws Exception {
        ExecutorService ranks = Executors.newFixedThreadPool(size);
        try (TcpJob job = TcpJob.withInitLinks(size, SHORT_TIMEOUT)) {
            List<Future<byte[]>> tables = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                InitMessenger links = job.rank(r).initLinks();
                assertNotNull(links, "rank " + r + " asked for init links");
                int rank = r;
                tables.add(ranks.submit(() -> ring(links, rank, size)));
            }
            byte[] expected = new byte[size * BLOCK];
            for (int r = 0; r < size; r++) {
                fill(ByteBuffer.wrap(expected, r * BLOCK, BLOCK), r);
            }
            for (int r = 0; r < size; r++) {
                assertArrayEquals(expected, tables.get(r).get(), "table of rank " + r);
            }
        } finally {
            ranks.shutdownNow();
        }
    }

    @Test
    void strangersAndWrongCredentialsAreRefusedAndTheRingStillRuns() throws Exception {
        ExecutorService rank1 = Executors.newSingleThreadExecutor();
        try (TcpJob job = TcpJob.withInitLinks(2, SHORT_TIMEOUT); StderrCapture stderr = new StderrCapture()) {
            int port = job.addresses[0].initLinkAddress().getPort();
            byte[] wrong = job.addresses[0].credential();
            wrong[0] ^= 1;
            try (Socket garbage = new Socket("127.0.0.1", port);
                 Socket impostor = new Socket("127.0.0.1", port)) {
                garbage.getOutputStream().write(new byte[24]);
                impostor.getOutputStream().write(ByteBuffer.allocate(24).putInt(0x4d504a49).putInt(1).put(wrong)
                        .array());
                InitMessenger links0 = job.rank(0).initLinks();
                InitMessenger links1 = job.rank(1).initLinks();
                Future<byte[]> table1 = rank1.submit(() -> ring(links1, 1, 2));
                byte[] table0 = ring(links0, 0, 2);

                assertArrayEquals(table0, table1.get());
                assertClosedByPeer(garbage);
                assertClosedByPeer(impostor);
                assertTrue(stderr.text().contains("rank 0 refused an init link not an init link"), stderr.text());
                assertTrue(stderr.text().contains("rank 0 refused an init link with a wrong credential (rank 1)"),
                        stderr.text());
            }
        } finally {
            rank1.shutdownNow();
        }
    }

    @Test
    void aMessageOfTheWrongLengthIsAnExchangeError() throws Exception {
        ExecutorService rank1 = Executors.newSingleThreadExecutor();
        try (TcpJob job = TcpJob.withInitLinks(2, SHORT_TIMEOUT);
             InitMessenger links0 = job.rank(0).initLinks();
             InitMessenger links1 = job.rank(1).initLinks()) {
            Future<ExchangeException> sender = rank1.submit(() -> assertThrows(ExchangeException.class,
                    () -> links1.sendReceive(ByteBuffer.allocate(4), 0, ByteBuffer.allocate(8), 0, 7)));
            ExchangeException e = assertThrows(ExchangeException.class,
                    () -> links0.sendReceive(ByteBuffer.allocate(0), 1, ByteBuffer.allocate(8), 1, 7));
            assertTrue(e.getMessage().contains("has tag 7 and 4 bytes, expected tag 7 and 8 bytes"), e.getMessage());
            ExchangeException peer = sender.get();
            assertTrue(peer.getMessage().contains("has tag 7 and 0 bytes, expected tag 7 and 8 bytes"),
                    peer.getMessage());
        } finally {
            rank1.shutdownNow();
        }
    }

    @Test
    void aSilentPeerEndsInATimeoutNamingIt() throws Exception {
        try (TcpJob job = TcpJob.withInitLinks(2, Settings.defaults().with(Setting.INIT_TIMEOUT, "1"));
             InitMessenger links0 = job.rank(0).initLinks()) {
            long start = System.nanoTime();
            ExchangeException e = assertThrows(ExchangeException.class,
                    () -> links0.sendReceive(ByteBuffer.allocate(8), 1, ByteBuffer.allocate(8), 1, 0));
            assertTrue(e.getMessage().contains("from rank 1 did not complete within 1 s"), e.getMessage());
            assertTrue(System.nanoTime() - start < 10_000_000_000L, "gave up after the timeout");
        }
    }

    @Test
    void onlyARankThatAskedHasInitLinksAndTheTransportClosesThoseNotTaken() throws Exception {
        int untakenPort;
        try (TcpJob plain = TcpJob.start(2);
             TcpJob roots = TcpJob.withInitLinks(2, SHORT_TIMEOUT)) {
            assertNull(plain.rank(0).initLinks());
            assertNull(plain.addresses[0].initLinkAddress());
            try (InitMessenger taken = roots.rank(0).initLinks()) {
                assertNotNull(taken);
                assertNull(roots.rank(0).initLinks(), "the links are handed over once");
            }
            untakenPort = roots.addresses[1].initLinkAddress().getPort();
            new Socket("127.0.0.1", untakenPort).close(); // listening until the transport closes
        }
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", untakenPort).close());
    }

    /** A ring allgather of {@code size} blocks, rank r contributing block r; returns the whole table. */
    private static byte[] ring(InitMessenger links, int rank, int size) {
        try (links) {
            byte[] table = new byte[size * BLOCK];
            fill(ByteBuffer.wrap(table, rank * BLOCK, BLOCK), rank);
            int right = (rank + 1) % size;
            int left = (rank + size - 1) % size;
            for (int step = 0; step < size - 1; step++) {
                int send = (rank - step + size) % size;
                int receive = (rank - step - 1 + size) % size;
                links.sendReceive(ByteBuffer.wrap(table, send * BLOCK, BLOCK), right,
                        ByteBuffer.wrap(table, receive * BLOCK, BLOCK), left, step);
            }
            return table;
        }
    }

    private static void fill(ByteBuffer block, int rank) {
        for (int i = block.position(); i < block.limit(); i++) {
            block.put(i, (byte) (rank * 37 + i));
        }
    }

    private static void assertClosedByPeer(Socket socket) throws IOException {
        socket.setSoTimeout(5_000);
        InputStream in = socket.getInputStream();
        assertEquals(-1, in.read(), "the refused link is closed");
    }
}
