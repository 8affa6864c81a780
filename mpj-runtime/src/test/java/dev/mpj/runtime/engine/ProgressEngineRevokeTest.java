package dev.mpj.runtime.engine;

import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.*;

/** A revoked collective context: its operations fail at every rank the revocation reaches, other contexts work. */
@Timeout(30)
class ProgressEngineRevokeTest {
    private static final int EAGER = 1024;
    private static final int COLL = 3;
    private static final int P2P = 2;
    private static final int[] MEMBERS = {0, 1, 2};
    private final EngineHarness h = new EngineHarness(3, EAGER, EAGER);

    private static void assertRevokedBy(int origin, Operation op) {
        assertTrue(op.isComplete());
        MPIException e = assertInstanceOf(MPIException.class, op.error());
        assertEquals(MPIException.ERR_REVOKED, e.getErrorClass());
        assertTrue(e.getMessage().contains("world rank " + origin + ": count mismatch"), e.getMessage());
    }

    @Test
    void aPostedReceiveFailsWhenAPeerRevokesItsContext() {
        Operation waiting = h.get(1).receive(ByteBuffer.allocate(8), 2, 7, COLL);
        h.get(0).revoke(COLL, MEMBERS, "count mismatch");
        h.pump(waiting::isComplete);
        assertRevokedBy(0, waiting);
    }

    @Test
    void aWaiterBlockedOnTheContextWakesWithTheRevocation() throws Exception {
        Operation waiting = h.get(1).receive(ByteBuffer.allocate(8), 2, 7, COLL);
        Thread revoker = new Thread(() -> h.get(0).revoke(COLL, MEMBERS, "count mismatch"));
        revoker.start();
        h.get(1).await(waiting::isComplete);
        revoker.join();
        assertRevokedBy(0, waiting);
    }

    @Test
    void laterOperationsOnTheContextFailAtOnceWhileOtherContextsStillWork() {
        h.get(0).revoke(COLL, MEMBERS, "count mismatch");
        h.pumpAll();
        assertRevokedBy(0, h.get(1).send(ByteBuffer.allocate(4), 2, 7, COLL, SendMode.STANDARD));
        assertRevokedBy(0, h.get(2).receive(ByteBuffer.allocate(4), 1, 7, COLL));
        assertTrue(h.get(0).isRevoked(COLL), "the revoking rank's own operations on it fail too");

        Operation recv = h.get(2).receive(ByteBuffer.allocate(4), 1, 7, P2P);
        Operation send = h.get(1).send(ByteBuffer.allocate(4), 2, 7, P2P, SendMode.STANDARD);
        h.pump(() -> recv.isComplete() && send.isComplete());
        assertNull(recv.error());
        assertEquals(4, recv.byteCount());
    }

    @Test
    void sendNowLeavesASendOnARevokedContextToTheSendPathThatFailsIt() {
        h.get(0).revoke(COLL, MEMBERS, "count mismatch");
        h.pumpAll();
        assertFalse(h.get(1).sendNow(ByteBuffer.allocate(4), 2, 7, COLL));
        assertRevokedBy(0, h.get(1).send(ByteBuffer.allocate(4), 2, 7, COLL, SendMode.STANDARD));
    }

    @Test
    void aRendezvousSendWaitingForItsMatchFails() {
        Operation send = h.get(1).send(ByteBuffer.allocate(4 * EAGER), 2, 7, COLL, SendMode.STANDARD);
        h.pumpAll();
        assertFalse(send.isComplete(), "no receive matched it");
        h.get(0).revoke(COLL, MEMBERS, "count mismatch");
        h.pump(send::isComplete);
        assertRevokedBy(0, send);
    }

    @Test
    void aClearToSendThatCrossesTheRevocationStillMovesTheDataAndBreaksNothing() {
        Operation send = h.get(1).send(ByteBuffer.allocate(4 * EAGER), 2, 7, COLL, SendMode.STANDARD);
        h.get(2).poll(); // the request to send arrives
        Operation recv = h.get(2).receive(ByteBuffer.allocate(4 * EAGER), 1, 7, COLL); // clear to send goes out
        h.get(1).revoke(COLL, MEMBERS, "count mismatch"); // before rank 1 has read it
        h.pump(() -> send.isComplete() && recv.isComplete());
        h.pumpAll();
        assertRevokedBy(1, recv);
        assertNull(h.get(1).failure(), "a late clear-to-send is no protocol error");
        assertNull(h.get(2).failure(), "late data is no protocol error");

        Operation p2pRecv = h.get(2).receive(ByteBuffer.allocate(4 * EAGER), 1, 7, P2P);
        Operation p2pSend = h.get(1).send(ByteBuffer.allocate(4 * EAGER), 2, 7, P2P, SendMode.STANDARD);
        h.pump(() -> p2pRecv.isComplete() && p2pSend.isComplete());
        assertNull(p2pRecv.error(), "the engines still work");
        assertNull(p2pSend.error(), "the engines still work");
    }

    @Test
    void theRevokingRanksOwnPendingCallFails() {
        Operation own = h.get(0).receive(ByteBuffer.allocate(8), 1, 7, COLL);
        h.get(0).revoke(COLL, MEMBERS, "count mismatch");
        assertTrue(own.isComplete());
        assertEquals(MPIException.ERR_REVOKED, ((MPIException) own.error()).getErrorClass());
    }

    @Test
    void anUnreachablePeerDoesNotKeepTheOthersFromHearing() {
        h.get(0).setRouter((peer, header, payload) -> {
            if (peer == 1) {
                throw new IllegalStateException("rank 1 is gone");
            }
            h.deliver(0, peer, header, payload);
        });
        Operation waiting = h.get(2).receive(ByteBuffer.allocate(8), 1, 7, COLL);
        h.get(0).revoke(COLL, MEMBERS, "count mismatch");
        h.pump(waiting::isComplete);
        assertRevokedBy(0, waiting);
    }

    @Test
    void aSecondRevocationKeepsTheFirstReasonAndSendsNothing() {
        h.get(0).revoke(COLL, MEMBERS, "count mismatch");
        h.pumpAll();
        int frames = h.framesSent;
        h.get(1).revoke(COLL, MEMBERS, "something else");
        assertEquals(frames, h.framesSent);
        assertRevokedBy(0, h.get(1).receive(ByteBuffer.allocate(4), 2, 7, COLL));
    }

    @Test
    void aFreedContextIsUsableAgain() {
        h.get(0).revoke(COLL, MEMBERS, "count mismatch");
        h.pumpAll();
        for (int r = 0; r < 3; r++) {
            h.get(r).forgetRevocation(COLL);
        }
        Operation recv = h.get(2).receive(ByteBuffer.allocate(4), 1, 7, COLL);
        Operation send = h.get(1).send(ByteBuffer.allocate(4), 2, 7, COLL, SendMode.STANDARD);
        h.pump(() -> recv.isComplete() && send.isComplete());
        assertNull(recv.error());
    }
}
