package dev.mpj.transport.tcp;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.spi.FrameHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A peer that passed the handshake and then breaks the framing: the connection ends, nothing is delivered. */
@Timeout(30)
class TcpProtocolErrorTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    /** Rank 0 of a 2-rank job, as a raw socket authenticated with rank 1. */
    private static RawPeer authenticatedPeer(TcpJob job) throws Exception {
        RawPeer peer = RawPeer.connect(job.addresses[1]);
        peer.hello(0, job.addresses[1].credential());
        assertEquals(1, peer.readAck());
        return peer;
    }

    private static void assertConnectionDroppedAndPeerLost(TcpJob job, RawPeer peer, String reason) throws Exception {
        assertTrue(peer.closedByOtherSide());
        Throwable cause = job.sink(1).awaitLost(0, WAIT);
        assertTrue(String.valueOf(cause.getMessage()).contains(reason), String.valueOf(cause));
        assertEquals(List.of(), job.sink(1).frames());
    }

    @Test
    void lengthAboveMaxFrameClosesTheConnectionWithoutAllocating() throws Exception {
        try (TcpJob job = TcpJob.start(2); RawPeer peer = authenticatedPeer(job)) {
            // announces 2 GiB, sends a little: must be refused at the length field, not buffered
            peer.lengthField(Integer.MAX_VALUE).raw(new byte[64]);

            assertConnectionDroppedAndPeerLost(job, peer, "exceeds mpj.tcp.maxFrame");
        }
    }

    @Test
    void lengthJustAboveMaxFrameIsRefused() throws Exception {
        try (TcpJob job = TcpJob.start(2); RawPeer peer = authenticatedPeer(job)) {
            peer.lengthField(Settings.defaults().tcpMaxFrame() + 1);

            assertConnectionDroppedAndPeerLost(job, peer, "exceeds mpj.tcp.maxFrame");
        }
    }

    @Test
    void negativeLengthIsRefused() throws Exception {
        try (TcpJob job = TcpJob.start(2); RawPeer peer = authenticatedPeer(job)) {
            peer.lengthField(-1);

            assertConnectionDroppedAndPeerLost(job, peer, "exceeds mpj.tcp.maxFrame");
        }
    }

    @Test
    void lengthShorterThanAFrameHeaderIsRefused() throws Exception {
        try (TcpJob job = TcpJob.start(2); RawPeer peer = authenticatedPeer(job)) {
            peer.lengthField(FrameHeader.LENGTH - 1).raw(new byte[FrameHeader.LENGTH - 1]);

            assertConnectionDroppedAndPeerLost(job, peer, "shorter than a frame header");
        }
    }

    @Test
    void frameOfUnknownKindIsRefused() throws Exception {
        try (TcpJob job = TcpJob.start(2); RawPeer peer = authenticatedPeer(job)) {
            peer.frame((byte) 0x40, 1, new byte[4]);

            assertConnectionDroppedAndPeerLost(job, peer, "unknown frame kind");
        }
    }

    @Test
    void framesAfterABadOneAreNotDelivered() throws Exception {
        try (TcpJob job = TcpJob.start(2); RawPeer peer = authenticatedPeer(job)) {
            peer.frame((byte) 0, 1, new byte[4]).frame(FrameHeader.EAGER, 2, new byte[4]);

            assertConnectionDroppedAndPeerLost(job, peer, "unknown frame kind");
        }
    }

    @Test
    void truncatedFrameFollowedByCloseDeliversNothing() throws Exception {
        try (TcpJob job = TcpJob.start(2)) {
            try (RawPeer peer = authenticatedPeer(job)) {
                peer.lengthField(FrameHeader.LENGTH + 100).raw(new byte[FrameHeader.LENGTH + 50]);
            }

            job.sink(1).awaitLost(0, WAIT);
            assertEquals(List.of(), job.sink(1).frames());
        }
    }
}
