package dev.mpj.runtime.engine;

import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Per-peer eager credit seen through the engine: beyond the budget, rendezvous; consumed bytes come back. */
@Timeout(30)
class ProgressEngineFlowControlTest {
    private static final int CREDIT = 4096;
    private static final int SIZE = 1024;

    private static EngineHarness harness(int credit) {
        return new EngineHarness(2, Settings.defaults()
                .with(Setting.EAGER_THRESHOLD, "65536")
                .with(Setting.EAGER_CREDIT, Integer.toString(credit)));
    }

    private static ByteBuffer message(int index) {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            b.putInt(index);
        }
        return b.flip();
    }

    private static void assertMessage(int index, ByteBuffer room) {
        room.rewind().order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(index, room.getInt(0), "first int of message " + index);
        assertEquals(index, room.getInt(SIZE - 4), "last int of message " + index);
    }

    @Test
    void sendsBeyondTheBudgetWaitForTheirReceiveAndAllArriveInOrder() {
        EngineHarness h = harness(CREDIT);
        int n = 3 * CREDIT / SIZE;
        List<Operation> sends = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sends.add(h.get(0).send(message(i), 1, 7, 0, SendMode.STANDARD));
        }
        h.pumpAll();
        for (int i = 0; i < n; i++) {
            assertEquals(i < CREDIT / SIZE, sends.get(i).isComplete(),
                    "message " + i + ": eager within the budget, rendezvous beyond it");
        }
        assertEquals(CREDIT, h.get(0).eagerBytesOutstanding(1));
        for (int i = 0; i < n; i++) {
            ByteBuffer room = ByteBuffer.allocate(SIZE);
            Operation r = h.get(1).receive(room, 0, 7, 0);
            h.pump(r::isComplete);
            assertMessage(i, room);
        }
        h.pump(() -> sends.stream().allMatch(Operation::isComplete));
        h.pumpAll();
        assertEquals(0, h.get(0).eagerBytesOutstanding(1), "the receiver returned every consumed eager byte");
        Operation again = h.get(0).send(message(n), 1, 7, 0, SendMode.STANDARD);
        assertTrue(again.isComplete(), "returned credit lets the next message go eagerly");
    }

    @Test
    void sendNowDeclinesOnceTheBudgetIsSpentAndGoesAgainWhenCreditComesBack() {
        EngineHarness h = harness(CREDIT);
        for (int i = 0; i < CREDIT / SIZE; i++) {
            assertTrue(h.get(0).sendNow(message(i), 1, 7, 0), "message " + i + " within the budget");
        }
        assertFalse(h.get(0).sendNow(message(CREDIT / SIZE), 1, 7, 0), "beyond the budget: the send path waits");
        assertEquals(CREDIT, h.get(0).eagerBytesOutstanding(1));
        for (int i = 0; i < CREDIT / SIZE; i++) {
            ByteBuffer room = ByteBuffer.allocate(SIZE);
            Operation r = h.get(1).receive(room, 0, 7, 0);
            h.pump(r::isComplete);
            assertMessage(i, room);
        }
        h.pump(() -> h.get(0).eagerBytesOutstanding(1) == 0);
        assertTrue(h.get(0).sendNow(message(0), 1, 7, 0), "returned credit lets it go again");
    }

    @Test
    void eagerMessagesMatchedOnArrivalReturnCreditToo() {
        EngineHarness h = harness(CREDIT);
        for (int i = 0; i < 10 * CREDIT / SIZE; i++) {
            ByteBuffer room = ByteBuffer.allocate(SIZE);
            Operation r = h.get(1).receive(room, 0, 1, 0);
            Operation s = h.get(0).send(message(i), 1, 1, 0, SendMode.STANDARD);
            assertTrue(s.isComplete(), "message " + i + " went eagerly: credit keeps coming back");
            h.pump(r::isComplete);
            assertMessage(i, room);
        }
    }

    @Test
    void bothDirectionsAtOnceComplete() {
        EngineHarness h = harness(CREDIT);
        int n = 5 * CREDIT / SIZE;
        List<Operation> ops = new ArrayList<>();
        List<ByteBuffer> rooms = new ArrayList<>();
        for (int me = 0; me < 2; me++) {
            for (int i = 0; i < n; i++) {
                ops.add(h.get(me).send(message(i + me * n), 1 - me, 3, 0, SendMode.STANDARD));
            }
        }
        for (int me = 0; me < 2; me++) {
            for (int i = 0; i < n; i++) {
                ByteBuffer room = ByteBuffer.allocate(SIZE);
                rooms.add(room);
                ops.add(h.get(me).receive(room, 1 - me, 3, 0));
            }
        }
        h.pump(() -> ops.stream().allMatch(Operation::isComplete));
        for (int me = 0; me < 2; me++) {
            for (int i = 0; i < n; i++) {
                assertMessage(i + (1 - me) * n, rooms.get(me * n + i));
            }
        }
    }

    @Test
    void synchronousSendsAreChargedAndStillCompleteOnlyOnTheMatch() {
        EngineHarness h = harness(SIZE);
        Operation first = h.get(0).send(message(0), 1, 0, 0, SendMode.SYNCHRONOUS);
        Operation second = h.get(0).send(message(1), 1, 0, 0, SendMode.SYNCHRONOUS);
        h.pumpAll();
        assertFalse(first.isComplete());
        assertFalse(second.isComplete());
        assertEquals(SIZE, h.get(0).eagerBytesOutstanding(1), "only the first fitted the budget");
        for (int i = 0; i < 2; i++) {
            ByteBuffer room = ByteBuffer.allocate(SIZE);
            Operation r = h.get(1).receive(room, 0, 0, 0);
            h.pump(r::isComplete);
            assertMessage(i, room);
        }
        h.pump(() -> first.isComplete() && second.isComplete());
    }

    @Test
    void aSenderWaitingBeyondTheBudgetFailsWhenItsPeerDies() {
        EngineHarness h = harness(0);
        Operation s = h.get(0).send(message(0), 1, 0, 0, SendMode.STANDARD);
        assertFalse(s.isComplete(), "with no credit the message waits for its receive");
        h.get(0).onPeerLost(1, null);
        MPIException e = assertThrows(MPIException.class, () -> h.get(0).await(s::isComplete));
        assertEquals(MPIException.ERR_PROC_FAILED, e.getErrorClass());
    }
}
