package dev.mpj.runtime.init;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.TransportMode;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.spi.Transport;
import dev.mpj.runtime.spi.TransportContext;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransportRouterTest {
    /** Ranks 0, 1 on node 0; ranks 2, 3 on node 1. */
    private static final NodeMap TWO_NODES = NodeMap.blocks(4, 2);

    @Test
    void autoUsesSharedMemoryWithinTheNodeAndTcpAcrossNodes() {
        assertTrue(TransportRouter.viaShm(TransportMode.AUTO, TWO_NODES, 0, 1));
        assertFalse(TransportRouter.viaShm(TransportMode.AUTO, TWO_NODES, 0, 2));
        assertTrue(TransportRouter.wantsShm(TransportMode.AUTO, TWO_NODES, 0));
        assertTrue(TransportRouter.wantsTcp(TransportMode.AUTO, TWO_NODES, 0));
    }

    @Test
    void tcpModeUsesTcpForEveryPeerAndStartsNoSharedMemory() {
        assertFalse(TransportRouter.viaShm(TransportMode.TCP, TWO_NODES, 0, 1));
        assertFalse(TransportRouter.wantsShm(TransportMode.TCP, TWO_NODES, 0));
        assertTrue(TransportRouter.wantsTcp(TransportMode.TCP, NodeMap.blocks(2, 1), 0));
    }

    @Test
    void aSingleNodeJobNeedsNoTcpUnlessForced() {
        NodeMap oneNode = NodeMap.blocks(4, 1);
        assertFalse(TransportRouter.wantsTcp(TransportMode.AUTO, oneNode, 2));
        assertFalse(TransportRouter.wantsTcp(TransportMode.SHM, oneNode, 2));
        assertTrue(TransportRouter.wantsTcp(TransportMode.TCP, oneNode, 2));
    }

    @Test
    void aRankAloneOnItsNodeStartsNoSharedMemory() {
        assertFalse(TransportRouter.wantsShm(TransportMode.SHM, NodeMap.blocks(2, 2), 0));
    }

    @Test
    void theModeComesFromTheTransportsSetting() {
        assertEquals(TransportMode.AUTO, Settings.defaults().transports());
        assertEquals(TransportMode.TCP, Settings.defaults().with(Setting.TRANSPORTS, "tcp").transports());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.defaults().with(Setting.TRANSPORTS, "udp"));
        assertTrue(e.getMessage().contains("mpj.transports must be auto, tcp or shm"), e.getMessage());
    }

    @Test
    void framesGoThroughThePeersTransport() {
        FakeTransport shm = new FakeTransport(true);
        FakeTransport tcp = new FakeTransport(false);
        TransportRouter router = new TransportRouter(0, 4);
        router.route(1, shm);
        router.route(2, tcp);
        router.route(3, tcp);
        router.send(1, ByteBuffer.allocate(32), ByteBuffer.allocate(0));
        router.send(3, ByteBuffer.allocate(32), ByteBuffer.allocate(0));
        assertEquals(List.of(1), shm.sentTo);
        assertEquals(List.of(3), tcp.sentTo);
    }

    @Test
    void onlyTransportsThatNeedPollingArePolled() {
        FakeTransport shm = new FakeTransport(true);
        FakeTransport tcp = new FakeTransport(false);
        TransportRouter router = new TransportRouter(0, 3);
        router.route(2, tcp);
        assertFalse(router.needsPolling());
        router.route(1, shm);
        assertTrue(router.needsPolling());
        assertEquals(1, router.poll());
        assertEquals(1, shm.polls);
        assertEquals(0, tcp.polls);
    }

    @Test
    void aPeerWithNoTransportIsARankError() {
        TransportRouter router = new TransportRouter(0, 3);
        MPIException e = assertThrows(MPIException.class,
                () -> router.send(2, ByteBuffer.allocate(32), ByteBuffer.allocate(0)));
        assertEquals(MPIException.ERR_RANK, e.getErrorClass());
    }

    @Test
    void closeClosesEachTransportOnce() {
        FakeTransport tcp = new FakeTransport(false);
        TransportRouter router = new TransportRouter(0, 4);
        router.route(1, tcp);
        router.route(2, tcp);
        router.close();
        assertEquals(1, tcp.closes);
    }

    private static final class FakeTransport implements Transport {
        final boolean polled;
        final List<Integer> sentTo = new ArrayList<>();
        int polls;
        int closes;

        FakeTransport(boolean polled) {
            this.polled = polled;
        }

        @Override
        public String name() {
            return polled ? "shm" : "tcp";
        }

        @Override
        public byte[] start(TransportContext context) {
            return new byte[0];
        }

        @Override
        public void addPeer(int rank, byte[] address) {
        }

        @Override
        public void send(int peer, ByteBuffer header, ByteBuffer payload) {
            sentTo.add(peer);
        }

        @Override
        public int poll() {
            polls++;
            return 1;
        }

        @Override
        public boolean needsPolling() {
            return polled;
        }

        @Override
        public void close() {
            closes++;
        }
    }
}
