package dev.mpj.transport.tcp;

import dev.mpj.runtime.spi.FrameHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class TcpHandshakeTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void connectionWithWrongCredentialIsRejectedAndNothingFromItIsDelivered() throws Exception {
        try (TcpJob job = TcpJob.start(2); StderrCapture stderr = new StderrCapture()) {
            byte[] wrong = job.addresses[1].credential();
            wrong[0] ^= 1;

            try (RawPeer intruder = RawPeer.connect(job.addresses[1])) {
                intruder.hello(0, wrong).frame(FrameHeader.EAGER, 1, new byte[8]);
                assertTrue(intruder.closedByOtherSide());
            }

            assertEquals(List.of(), job.sink(1).frames());
            assertTrue(stderr.text().matches(
                            "(?s).*mpj tcp: rejected connection from /127\\.0\\.0\\.1:\\d+: wrong credential\\R.*"),
                    stderr.text());
        }
    }

    @Test
    void listenerStillServesGoodPeersAfterARejection() throws Exception {
        try (TcpJob job = TcpJob.start(2)) {
            try (RawPeer intruder = RawPeer.connect(job.addresses[1])) {
                intruder.hello(0, new byte[TcpAddress.CREDENTIAL_LENGTH]);
                assertTrue(intruder.closedByOtherSide());
            }

            job.rank(0).send(1, TcpJob.header(5, 0), TcpJob.payload(10, 5));

            assertEquals(5, job.sink(1).awaitFrames(1, WAIT).get(0).tag());
        }
    }

    @ParameterizedTest(name = "claimed rank {0}")
    @ValueSource(ints = {-1, 2, 1000})
    void helloClaimingARankOutsideTheJobIsRejected(int claimed) throws Exception {
        assertHelloRejected(claimed, "is not in [0, 2)");
    }

    @Test
    void helloClaimingTheAcceptorsOwnRankIsRejected() throws Exception {
        assertHelloRejected(1, "is this rank");
    }

    private static void assertHelloRejected(int claimedRank, String reason) throws Exception {
        try (TcpJob job = TcpJob.start(2); StderrCapture stderr = new StderrCapture()) {
            try (RawPeer peer = RawPeer.connect(job.addresses[1])) {
                peer.hello(claimedRank, job.addresses[1].credential()).frame(FrameHeader.EAGER, 1, new byte[8]);
                assertTrue(peer.closedByOtherSide());
            }

            assertEquals(List.of(), job.sink(1).frames());
            assertTrue(stderr.text().contains(reason), stderr.text());
        }
    }

    @Test
    void connectionThatIsNotMpjIsRejected() throws Exception {
        try (TcpJob job = TcpJob.start(2); StderrCapture stderr = new StderrCapture()) {
            try (RawPeer peer = RawPeer.connect(job.addresses[1])) {
                peer.raw("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertTrue(peer.closedByOtherSide());
            }

            assertTrue(stderr.text().contains("not an mpj connection"), stderr.text());
        }
    }

    @Test
    void goodHelloIsAnsweredWithTheAcceptorsRankAndItsFramesAreDelivered() throws Exception {
        try (TcpJob job = TcpJob.start(3); RawPeer peer = RawPeer.connect(job.addresses[1])) {
            peer.hello(2, job.addresses[1].credential());
            assertEquals(1, peer.readAck());

            peer.frame(FrameHeader.EAGER, 42, new byte[]{1, 2, 3});

            RecordingSink.Received frame = job.sink(1).awaitFrames(1, WAIT).get(0);
            assertEquals(2, frame.peer());
            assertEquals(42, frame.tag());
        }
    }

    @Test
    void credentialOfAnotherRankDoesNotOpenThisOne() throws Exception {
        try (TcpJob job = TcpJob.start(3); RawPeer peer = RawPeer.connect(job.addresses[1])) {
            peer.hello(0, job.addresses[2].credential());

            assertTrue(peer.closedByOtherSide());
        }
    }

    @Test
    void frameSentRightBehindTheHelloIsDeliveredAfterTheHandshake() throws Exception {
        try (TcpJob job = TcpJob.start(2); RawPeer peer = RawPeer.connect(job.addresses[1])) {
            peer.hello(0, job.addresses[1].credential()).frame(FrameHeader.EAGER, 9, new byte[]{4, 5});

            RecordingSink.Received frame = job.sink(1).awaitFrames(1, WAIT).get(0);
            assertEquals(9, frame.tag());
            assertEquals(1, peer.readAck());
        }
    }
}
