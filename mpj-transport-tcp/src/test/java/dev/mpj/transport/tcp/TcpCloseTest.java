package dev.mpj.transport.tcp;

import dev.mpj.runtime.spi.FrameHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class TcpCloseTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void peerThatClosesInOrderIsNotReportedLost() throws Exception {
        try (TcpJob job = TcpJob.start(2)) {
            job.rank(0).send(1, TcpJob.header(1, 0), TcpJob.payload(10, 1));
            job.rank(1).send(0, TcpJob.header(2, 0), TcpJob.payload(10, 2));
            job.sink(1).awaitFrames(1, WAIT);
            job.sink(0).awaitFrames(1, WAIT);

            job.rank(0).close(); // returns once rank 1 has read BYE and closed its end
            Thread.sleep(100);

            assertEquals(Map.of(), job.sink(1).lost());
        }
    }

    @Test
    void ranksClosingAtTheSameTimeReportNothing() throws Exception {
        try (TcpJob job = TcpJob.start(3)) {
            for (int from = 0; from < 3; from++) {
                for (int to = 0; to < 3; to++) {
                    if (from != to) {
                        job.rank(from).send(to, TcpJob.header(from, 0), TcpJob.payload(10, from));
                    }
                }
            }
            for (int r = 0; r < 3; r++) {
                job.sink(r).awaitFrames(2, WAIT);
            }

            Thread[] closers = new Thread[3];
            for (int r = 0; r < 3; r++) {
                closers[r] = new Thread(job.rank(r)::close);
                closers[r].start();
            }
            for (Thread t : closers) {
                t.join();
            }

            for (int r = 0; r < 3; r++) {
                assertEquals(0, job.sink(r).lostReports(), "rank " + r);
            }
        }
    }

    @Test
    void authenticatedPeerThatVanishesWithoutByeIsReportedLost() throws Exception {
        try (TcpJob job = TcpJob.start(2)) {
            RawPeer peer = RawPeer.connect(job.addresses[1]);
            peer.hello(0, job.addresses[1].credential());
            peer.readAck();
            peer.frame(FrameHeader.EAGER, 1, new byte[1]);

            peer.close();

            Throwable cause = job.sink(1).awaitLost(0, WAIT);
            assertTrue(cause.getMessage().contains("without BYE"), cause.getMessage());
            assertEquals(1, job.sink(1).frames().size());
        }
    }

    @Test
    void connectionKilledUnderAPeerIsReportedLostOnBothSides() throws Exception {
        try (TcpJob job = TcpJob.start(2)) {
            job.rank(0).send(1, TcpJob.header(1, 0), TcpJob.payload(10, 1));
            job.sink(1).awaitFrames(1, WAIT);

            for (Connection c : job.rank(0).connections()) {
                c.channel().close(); // as if the network dropped it: no BYE
            }

            job.sink(1).awaitLost(0, WAIT);
            job.sink(0).awaitLost(1, WAIT);
        }
    }

    @Test
    void acceptorThatAnswersThenDropsTheConnectionIsReportedLost() throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             TcpJob job = TcpJob.start(2)) {
            byte[] credential = new byte[TcpAddress.CREDENTIAL_LENGTH];
            job.rank(0).addPeer(1, new TcpAddress(fake.getInetAddress(), fake.getLocalPort(), credential).encode());

            job.rank(0).send(1, TcpJob.header(1, 0), ByteBuffer.allocate(0));
            try (RawPeer acceptor = new RawPeer(fake.accept())) {
                assertEquals(0, acceptor.readHello(new byte[TcpAddress.CREDENTIAL_LENGTH]));
                acceptor.ack(1);
            }

            job.sink(0).awaitLost(1, WAIT);
        }
    }

    @Test
    void acceptorThatAnswersAsAnotherRankIsDropped() throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             TcpJob job = TcpJob.start(3)) {
            byte[] credential = new byte[TcpAddress.CREDENTIAL_LENGTH];
            job.rank(0).addPeer(1, new TcpAddress(fake.getInetAddress(), fake.getLocalPort(), credential).encode());

            job.rank(0).send(1, TcpJob.header(1, 0), ByteBuffer.allocate(0));
            try (RawPeer acceptor = new RawPeer(fake.accept())) {
                acceptor.readHello(new byte[TcpAddress.CREDENTIAL_LENGTH]);
                acceptor.ack(2);
                assertTrue(acceptor.closedByOtherSide());
            }

            assertTrue(job.sink(0).awaitLost(1, WAIT).getMessage().contains("answered as rank 2"));
        }
    }

    @Test
    void peerNobodyListensForIsReportedLostAfterRetries() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort(); // closed again: connections to it are refused
        }
        try (TcpJob job = TcpJob.start(2)) {
            job.rank(0).addPeer(1, new TcpAddress(InetAddress.getLoopbackAddress(), port,
                    new byte[TcpAddress.CREDENTIAL_LENGTH]).encode());

            job.rank(0).send(1, TcpJob.header(1, 0), ByteBuffer.allocate(0));

            assertTrue(job.sink(0).awaitLost(1, WAIT).getMessage().contains("cannot connect to rank 1"));
        }
    }

    @Test
    void closeTwiceIsHarmless() throws Exception {
        try (TcpJob job = TcpJob.start(2)) {
            job.rank(0).send(1, TcpJob.header(1, 0), ByteBuffer.allocate(0));
            job.sink(1).awaitFrames(1, WAIT);

            job.rank(0).close();
            job.rank(0).close();

            assertEquals(Map.of(), job.sink(1).lost());
        }
    }
}
