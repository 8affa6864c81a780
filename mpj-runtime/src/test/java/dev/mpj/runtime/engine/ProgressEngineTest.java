package dev.mpj.runtime.engine;

import dev.mpj.api.Envelope;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(30)
class ProgressEngineTest {
    private static final int EAGER = 1024;
    private static final int CHUNK = 1024;
    private final EngineHarness h = new EngineHarness(3, EAGER, CHUNK);

    private static ByteBuffer bytes(int n, int seed) {
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            b.put((byte) (i * 31 + seed));
        }
        return b.flip();
    }

    private static ByteBuffer room(int n) {
        return ByteBuffer.allocate(n);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, EAGER, EAGER + 1, 10 * CHUNK + 7})
    void messageArrivesWhetherReceivePostedBeforeOrAfter(int size) {
        for (boolean receiveFirst : new boolean[]{true, false}) {
            ByteBuffer data = bytes(size, size);
            ByteBuffer r = room(size);
            Operation recv = receiveFirst ? h.get(1).receive(r, 0, 5, 0) : null;
            Operation send = h.get(0).send(data, 1, 5, 0, SendMode.STANDARD);
            h.pumpAll();
            Operation rr = recv != null ? recv : h.get(1).receive(r, 0, 5, 0);
            h.pump(() -> rr.isComplete() && send.isComplete());
            assertEquals(size, rr.byteCount());
            assertEquals(0, rr.source());
            assertEquals(5, rr.tag());
            assertEquals(bytes(size, size), r.rewind());
        }
    }

    @Test
    void largeUnexpectedMessageIsNotBufferedUntilMatched() {
        int size = 20 * CHUNK;
        Operation send = h.get(0).send(bytes(size, 1), 1, 0, 0, SendMode.STANDARD);
        h.pumpAll();
        int framesBefore = h.framesSent;
        assertFalse(send.isComplete(), "rendezvous send completes only after the receiver clears it");
        assertEquals(1, h.get(1).unexpectedCount());
        assertEquals(1, framesBefore, "only the request-to-send crossed before the match");
        Operation recv = h.get(1).receive(room(size), 0, 0, 0);
        h.pump(() -> recv.isComplete() && send.isComplete());
        assertEquals(size, recv.byteCount());
    }

    @Test
    void messagesFromOneSenderAreNotOvertakenAcrossProtocols() {
        // small, large, small with the same envelope must be received in send order
        int[] sizes = {10, 5 * CHUNK, 20, EAGER + 1, 0};
        List<Operation> sends = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            sends.add(h.get(0).send(bytes(sizes[i], i), 1, 9, 0, SendMode.STANDARD));
        }
        h.pumpAll();
        for (int i = 0; i < sizes.length; i++) {
            ByteBuffer r = room(10 * CHUNK);
            Operation recv = h.get(1).receive(r, MpiBackend.ANY_SOURCE, MpiBackend.ANY_TAG, 0);
            h.pump(recv::isComplete);
            assertEquals(sizes[i], recv.byteCount(), "message " + i);
            r.limit(sizes[i]);
            assertEquals(bytes(sizes[i], i), r);
        }
        h.pump(() -> sends.stream().allMatch(Operation::isComplete));
    }

    @Test
    void postedReceivesMatchInPostOrderWithWildcards() {
        Operation anyAny = h.get(2).receive(room(8), MpiBackend.ANY_SOURCE, MpiBackend.ANY_TAG, 0);
        Operation from1tag7 = h.get(2).receive(room(8), 1, 7, 0);
        h.get(1).send(bytes(1, 0), 2, 7, 0, SendMode.STANDARD);
        h.pump(anyAny::isComplete);
        assertFalse(from1tag7.isComplete(), "the earlier-posted wildcard receive takes the first message");
        assertEquals(1, anyAny.source());
        h.get(0).send(bytes(1, 0), 2, 7, 0, SendMode.STANDARD);
        h.pumpAll();
        assertFalse(from1tag7.isComplete(), "a message from rank 0 does not match a receive for rank 1");
        h.get(1).send(bytes(1, 0), 2, 7, 0, SendMode.STANDARD);
        h.pump(from1tag7::isComplete);
        assertEquals(1, h.get(2).unexpectedCount(), "rank 0's message waits unexpected");
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {8, EAGER + 1})
    void blockingReceiveKeepsPostOrderAndArrivalOrder(int size) throws Exception {
        ProgressEngine receiver = h.get(2);
        Thread senderProgress = pumping(h.get(0), h.get(1)); // senders answer clear-to-send while rank 2 blocks
        try {
            Operation anyAny = receiver.receive(room(size), MpiBackend.ANY_SOURCE, MpiBackend.ANY_TAG, 0);
            h.get(1).send(bytes(size, 1), 2, 7, 0, SendMode.STANDARD);
            h.get(1).send(bytes(size, 2), 2, 7, 0, SendMode.STANDARD);
            ByteBuffer r = room(size);
            // both frames wait in the inbox: the earlier-posted wildcard receive takes the first
            Operation blocking = receiver.receiveAndWait(r, 1, 7, 0, (source, tag) -> "Recv");
            assertTrue(blocking.isComplete());
            assertEquals(bytes(size, 2), r.rewind());
            h.pump(anyAny::isComplete);
            assertEquals(bytes(size, 1), anyAny.buffer().rewind());
            h.get(0).send(bytes(size, 3), 2, 8, 0, SendMode.STANDARD);
            h.get(1).send(bytes(size, 4), 2, 9, 0, SendMode.STANDARD);
            receiver.poll();
            assertEquals(2, receiver.unexpectedCount());
            Operation first = receiver.receiveAndWait(r.clear(), MpiBackend.ANY_SOURCE, MpiBackend.ANY_TAG, 0,
                    (source, tag) -> "Recv");
            assertEquals(0, first.source(), "an unexpected message is taken in arrival order");
            assertEquals(bytes(size, 3), r.rewind());
        } finally {
            senderProgress.interrupt();
            senderProgress.join();
        }
    }

    @Test
    void blockingReceiveThatWaitsIsDescribedAndWokenByAFrameFromAnotherThread() throws Exception {
        ProgressEngine receiver = h.get(1);
        ByteBuffer r = room(4);
        Operation[] got = new Operation[1];
        Thread mpi = new Thread(() -> got[0] = receiver.receiveAndWait(r, 0, 6, 0,
                (source, tag) -> "Recv(source=" + source + ", tag=" + tag + ")"), "mpi");
        mpi.start();
        List<String> report;
        while (!(report = receiver.waitReport()).get(0).contains("waits in")) {
            Thread.sleep(5);
        }
        assertTrue(report.get(0).startsWith("rank 1 waits in Recv(source=0, tag=6) for "), report.toString());
        h.get(0).send(bytes(4, 9), 1, 6, 0, SendMode.STANDARD);
        mpi.join();
        assertEquals(4, got[0].byteCount());
        assertEquals(bytes(4, 9), r.rewind());
    }

    @ParameterizedTest(name = "thread level {0}")
    @ValueSource(ints = {MPI.THREAD_SINGLE, MPI.THREAD_MULTIPLE})
    void blockingReceivesInARowEachReportTheirOwnMessageAndATruncatedOneKeepsItsError(int threadLevel) {
        ProgressEngine receiver = h.get(1);
        receiver.setThreadLevel(threadLevel);
        int[] sizes = {4, 8, 2, 6};
        for (int i = 0; i < sizes.length; i++) {
            h.get(i % 2 == 0 ? 0 : 2).send(bytes(sizes[i], i), 1, 10 + i, 0, SendMode.STANDARD);
        }
        h.pumpAll();
        List<Operation> done = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            ByteBuffer r = room(6);
            Operation op = receiver.receiveAndWait(r, MpiBackend.ANY_SOURCE, MpiBackend.ANY_TAG, 0,
                    (source, tag) -> "Recv");
            assertTrue(op.isComplete(), "message " + i);
            assertEquals(i % 2 == 0 ? 0 : 2, op.source(), "message " + i);
            assertEquals(10 + i, op.tag(), "message " + i);
            assertEquals(Math.min(sizes[i], 6), op.byteCount(), "message " + i);
            assertEquals(bytes(sizes[i], i).limit(Math.min(sizes[i], 6)), r.rewind().limit(op.byteCount()));
            if (i == 1) {
                assertEquals(MPIException.ERR_TRUNCATE, ((MPIException) op.error()).getErrorClass());
            } else {
                assertNull(op.error(), "message " + i);
            }
            done.add(op);
        }
        // an operation is read before the caller's next call; one that failed is never made the next receive
        assertEquals(MPIException.ERR_TRUNCATE, ((MPIException) done.get(1).error()).getErrorClass());
        assertEquals(10 + 1, done.get(1).tag());
    }

    @Test
    void blockingReceiveOnARevokedContextFailsAtOnce() {
        h.get(1).revoke(4, new int[] {1}, "test");
        Operation op = h.get(1).receiveAndWait(room(4), 0, 0, 4, (source, tag) -> "Recv");
        assertTrue(op.isComplete());
        assertEquals(MPIException.ERR_REVOKED, ((MPIException) op.error()).getErrorClass());
    }

    @Test
    void aReleasedReceiveIsMadeTheNextOneAndReportsOnlyItsOwnMessage() {
        ProgressEngine receiver = h.get(1);
        ByteBuffer first = room(8);
        Operation a = receiver.receive(first, 0, 3, 0);
        h.get(0).send(bytes(8, 1), 1, 3, 0, SendMode.STANDARD);
        h.pump(a::isComplete);
        receiver.release(a);
        assertEquals(1, receiver.spareReceives());
        ByteBuffer second = room(8);
        Operation b = receiver.receive(second, MpiBackend.ANY_SOURCE, MpiBackend.ANY_TAG, 0);
        assertSame(a, b, "the released operation is reused");
        assertEquals(0, receiver.spareReceives());
        assertFalse(b.isComplete(), "a reused operation is pending until its own message arrives");
        h.get(2).send(bytes(5, 2), 1, 4, 0, SendMode.STANDARD);
        h.pump(b::isComplete);
        assertEquals(2, b.source());
        assertEquals(4, b.tag());
        assertEquals(5, b.byteCount());
        assertEquals(bytes(5, 2), second.rewind().limit(5));
        assertEquals(bytes(8, 1), first.rewind(), "the first room keeps the first message");
    }

    /**
     * A spare reads complete until the engine puts it in flight: a blocking receive made of one waits for its own
     * message when none has come, and one matched to an unexpected rendezvous message waits for the data.
     */
    @Test
    void aBlockingReceiveMadeOfASpareWaitsForItsOwnMessageAndForRendezvousData() throws Exception {
        ProgressEngine receiver = h.get(1);
        ByteBuffer first = room(8);
        h.get(0).send(bytes(8, 1), 1, 3, 0, SendMode.STANDARD);
        h.pumpAll();
        receiver.release(receiver.receiveAndWait(first, 0, 3, 0, (source, tag) -> "Recv"));
        assertEquals(1, receiver.spareReceives());
        ByteBuffer second = room(8);
        Operation[] got = new Operation[1];
        Thread mpi = new Thread(() -> got[0] = receiver.receiveAndWait(second, 2, 4, 0, (source, tag) -> "Recv"),
                "mpi");
        mpi.start();
        while (!receiver.waitReport().get(0).contains("waits in")) {
            Thread.sleep(5);
        }
        assertTrue(mpi.isAlive(), "no message of its own yet");
        h.get(0).send(bytes(8, 9), 1, 4, 0, SendMode.STANDARD); // another source's: not this receive's
        h.get(2).send(bytes(6, 2), 1, 4, 0, SendMode.STANDARD);
        mpi.join(10_000);
        assertFalse(mpi.isAlive());
        assertEquals(2, got[0].source());
        assertEquals(4, got[0].tag());
        assertEquals(6, got[0].byteCount());
        assertEquals(bytes(6, 2), second.rewind().limit(6));
        receiver.release(got[0]);
        assertEquals(1, receiver.unexpectedCount(), "the other source's message waits");

        int large = EAGER * 3;
        Operation sent = h.get(2).send(bytes(large, 5), 1, 5, 0, SendMode.STANDARD);
        receiver.poll();
        assertEquals(2, receiver.unexpectedCount(), "the rendezvous message's request waits");
        ByteBuffer third = room(large);
        Thread mpi2 = new Thread(() -> got[0] = receiver.receiveAndWait(third, 2, 5, 0, (source, tag) -> "Recv"),
                "mpi");
        mpi2.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while ((mpi2.isAlive() || !sent.isComplete()) && System.nanoTime() < deadline) {
            h.get(2).poll(); // the sender answers the receiver's clear-to-send with the data
        }
        mpi2.join(1_000);
        assertFalse(mpi2.isAlive());
        assertTrue(got[0].isComplete());
        assertEquals(large, got[0].byteCount(), "completed with the rendezvous data, not before it");
        assertEquals(bytes(large, 5), third.rewind());
    }

    @Test
    void failedCancelledPendingAndLargeReceivesAreNotKept() {
        ProgressEngine receiver = h.get(1);
        Operation cancelled = receiver.receive(room(8), 0, 1, 0);
        cancelled.cancel();
        receiver.release(cancelled);
        Operation truncated = receiver.receive(room(2), 0, 2, 0);
        Operation large = receiver.receive(room(EAGER + 1), 0, 3, 0);
        Operation pending = receiver.receive(room(8), 0, 4, 0);
        h.get(0).send(bytes(8, 0), 1, 2, 0, SendMode.STANDARD);
        h.get(0).send(bytes(8, 0), 1, 3, 0, SendMode.STANDARD);
        h.pump(() -> truncated.isComplete() && large.isComplete());
        receiver.release(truncated);
        receiver.release(large);
        receiver.release(pending);
        assertEquals(0, receiver.spareReceives());
        assertEquals(MPIException.ERR_TRUNCATE, ((MPIException) truncated.error()).getErrorClass());
        h.get(0).send(bytes(8, 5), 1, 4, 0, SendMode.STANDARD);
        h.pump(pending::isComplete);
        assertEquals(8, pending.byteCount(), "a receive released before it completed still gets its message");
    }

    @Test
    void threadsReceivingAtOnceUnderThreadMultipleNeverShareAnOperation() throws Exception {
        ProgressEngine engine = h.get(1);
        engine.setThreadLevel(MPI.THREAD_MULTIPLE);
        int threads = 4;
        int rounds = 3000;
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < threads; t++) {
            int tag = t;
            Thread w = new Thread(() -> {
                try {
                    for (int i = 0; i < rounds; i++) {
                        ByteBuffer r = room(8);
                        Operation op = engine.receive(r, 1, tag, 0);
                        engine.send(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, i), 1, tag, 0,
                                SendMode.STANDARD);
                        engine.await(op::isComplete);
                        LockSupport.parkNanos(i % 64 == 0 ? 1000 : 0); // let other threads take spares meanwhile
                        assertEquals(tag, op.tag());
                        assertEquals(i, r.order(ByteOrder.LITTLE_ENDIAN).getLong(0));
                        assertEquals(8, op.byteCount());
                        engine.release(op);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "receiver-" + t);
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        assertEquals(List.of(), failures);
        assertTrue(engine.spareReceives() <= threads, "each thread releases its one receive before its next");
    }

    /** A thread that polls {@code engines} every 50 µs until interrupted; they admit any thread from now on. */
    private static Thread pumping(ProgressEngine... engines) {
        for (ProgressEngine e : engines) {
            e.setThreadLevel(MPI.THREAD_MULTIPLE);
        }
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                for (ProgressEngine e : engines) {
                    e.poll();
                }
                LockSupport.parkNanos(50_000);
            }
        }, "sender progress");
        t.start();
        return t;
    }

    @Test
    void contextsNeverCrossMatch() {
        Operation ctx1 = h.get(1).receive(room(4), 0, 3, 1);
        h.get(0).send(bytes(4, 0), 1, 3, 0, SendMode.STANDARD);
        h.pumpAll();
        assertFalse(ctx1.isComplete());
        assertNotNull(h.get(1).probe(0, 3, 0));
        assertNull(h.get(1).probe(0, 3, 1));
    }

    @Test
    void sendNowTakesOnlyEagerSendsToOtherRanksAndKeepsTheSendersOrder() {
        assertFalse(h.get(0).sendNow(bytes(EAGER + 1, 0), 1, 9, 0), "a rendezvous send is tracked");
        assertFalse(h.get(0).sendNow(bytes(8, 0), 0, 9, 0), "a send to itself is matched here");
        // small through sendNow around a large one through send: received in the order sent
        int[] sizes = {10, 5 * CHUNK, EAGER, 0};
        List<Operation> sends = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] <= EAGER) {
                assertTrue(h.get(0).sendNow(bytes(sizes[i], i), 1, 9, 0), "message " + i);
            } else {
                sends.add(h.get(0).send(bytes(sizes[i], i), 1, 9, 0, SendMode.STANDARD));
            }
        }
        h.pumpAll();
        for (int i = 0; i < sizes.length; i++) {
            ByteBuffer r = room(10 * CHUNK);
            Operation recv = h.get(1).receive(r, MpiBackend.ANY_SOURCE, 9, 0);
            h.pump(recv::isComplete);
            assertEquals(sizes[i], recv.byteCount(), "message " + i);
            assertEquals(bytes(sizes[i], i), r.limit(sizes[i]));
        }
        h.pump(() -> sends.stream().allMatch(Operation::isComplete));
    }

    @Test
    void synchronousSendCompletesOnlyAfterTheMatch() {
        for (int size : new int[]{8, 4 * CHUNK}) {
            Operation ssend = h.get(0).send(bytes(size, 0), 1, 1, 0, SendMode.SYNCHRONOUS);
            h.pumpAll();
            assertFalse(ssend.isComplete(), "no receive posted yet (" + size + " bytes)");
            Operation recv = h.get(1).receive(room(size), 0, 1, 0);
            h.pump(() -> ssend.isComplete() && recv.isComplete());
        }
    }

    @Test
    void sendToSelfWorksEagerSynchronousAndLarge() {
        for (SendMode mode : new SendMode[]{SendMode.STANDARD, SendMode.SYNCHRONOUS}) {
            for (int size : new int[]{0, 16, 3 * CHUNK}) {
                Operation send = h.get(0).send(bytes(size, 2), 0, 4, 0, mode);
                ByteBuffer r = room(size);
                Operation recv = h.get(0).receive(r, 0, 4, 0);
                h.pump(() -> send.isComplete() && recv.isComplete());
                assertEquals(bytes(size, 2), r.rewind(), mode + " " + size);
            }
        }
    }

    @Test
    void truncatedMessageCompletesWithTruncateError() {
        for (int size : new int[]{100, 3 * CHUNK}) {
            ByteBuffer r = room(10);
            Operation recv = h.get(1).receive(r, 0, 0, 0);
            h.get(0).send(bytes(size, 0), 1, 0, 0, SendMode.STANDARD);
            h.pump(recv::isComplete);
            assertNotNull(recv.error());
            assertEquals(MPIException.ERR_TRUNCATE, ((MPIException) recv.error()).getErrorClass());
            assertEquals(10, recv.byteCount());
        }
    }

    @Test
    void receiveWithoutRoomGetsAnExactlySizedBuffer() {
        h.get(0).send(bytes(37, 3), 1, 0, 0, SendMode.STANDARD);
        Operation recv = h.get(1).receive(null, 0, 0, 0);
        h.pump(recv::isComplete);
        assertEquals(37, recv.buffer().capacity());
        assertEquals(bytes(37, 3), recv.buffer().rewind());
    }

    @Test
    void cancelRemovesAnUnmatchedReceiveOnly() {
        Operation recv = h.get(1).receive(room(4), 0, 0, 0);
        recv.cancel();
        assertTrue(recv.isComplete());
        assertTrue(recv.isCancelled());
        h.get(0).send(bytes(4, 0), 1, 0, 0, SendMode.STANDARD);
        h.pumpAll();
        assertEquals(1, h.get(1).unexpectedCount(), "the cancelled receive did not take the message");
        Operation matched = h.get(1).receive(room(4), 0, 0, 0);
        matched.cancel();
        assertFalse(matched.isCancelled());
    }

    @Test
    void probeSeesEnvelopeWithoutConsumingIt() {
        h.get(0).send(bytes(5 * CHUNK, 0), 1, 11, 0, SendMode.STANDARD);
        h.pumpAll();
        Envelope e = h.get(1).probe(MpiBackend.ANY_SOURCE, MpiBackend.ANY_TAG, 0);
        assertEquals(new Envelope(0, 11, 5 * CHUNK), e);
        assertNotNull(h.get(1).probe(0, 11, 0), "probing twice sees it again");
    }

    @Test
    void lostPeerFailsWaitersWithProcFailed() {
        Operation recv = h.get(1).receive(room(4), 0, 0, 0);
        h.get(1).onPeerLost(0, new RuntimeException("connection reset"));
        MPIException e = assertThrows(MPIException.class, () -> h.get(1).await(recv::isComplete));
        assertEquals(MPIException.ERR_PROC_FAILED, e.getErrorClass());
        assertTrue(e.getMessage().contains("rank 0"), e.getMessage());
    }

    @Test
    void aWaiterAlreadyIdlingIsFailedByAPeerLostOnAnotherThread() throws Exception {
        Operation recv = h.get(1).receive(room(4), 0, 0, 0);
        Thread loser = startSoon(() -> h.get(1).onPeerLost(0, new RuntimeException("connection reset")));
        MPIException e = assertThrows(MPIException.class, () -> h.get(1).await(recv::isComplete));
        loser.join();
        assertEquals(MPIException.ERR_PROC_FAILED, e.getErrorClass());
        assertFalse(recv.isComplete());
    }

    @Test
    void awaitParksAndIsWokenByAFrameFromAnotherThread() throws Exception {
        Operation recv = h.get(1).receive(room(4), 0, 0, 0);
        Thread sender = startSoon(() -> h.get(0).send(bytes(4, 0), 1, 0, 0, SendMode.STANDARD));
        h.get(1).await(recv::isComplete);
        sender.join();
        assertEquals(4, recv.byteCount());
    }

    @Test
    void framesPushedFromSeveralThreadsAtOnceIntoAFreshEngineAllArriveInEachSendersOrder() throws Exception {
        int senders = 4;
        int messages = 20;
        EngineHarness many = new EngineHarness(senders + 1, EAGER, CHUNK);
        CyclicBarrier start = new CyclicBarrier(senders);
        List<Thread> threads = new ArrayList<>();
        for (int s = 1; s <= senders; s++) {
            int from = s;
            Thread t = new Thread(() -> {
                try {
                    start.await(); // the first frames race to make the receiver's inbox
                } catch (Exception e) {
                    return;
                }
                for (int i = 0; i < messages; i++) {
                    many.get(from).send(bytes(8, from * 100 + i), 0, i, 0, SendMode.STANDARD);
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int s = 1; s <= senders; s++) {
            for (int i = 0; i < messages; i++) {
                ByteBuffer r = room(8);
                Operation recv = many.get(0).receive(r, s, MpiBackend.ANY_TAG, 0);
                many.pump(recv::isComplete);
                assertEquals(i, recv.tag(), "rank " + s + "'s messages in the order sent");
                assertEquals(bytes(8, s * 100 + i), r.rewind());
            }
        }
    }

    @Test
    void aTaskAdvancesOnEveryPassUntilItReportsItHasFinished() {
        ProgressEngine engine = h.get(0);
        int[] advances = new int[1];
        engine.addTask(() -> ++advances[0] == 3);
        engine.poll();
        assertEquals(1, advances[0]);
        assertEquals(1, engine.taskCount());
        engine.await(() -> advances[0] >= 3);
        assertEquals(3, advances[0], "a wait's passes advance the task");
        assertEquals(0, engine.taskCount(), "a finished task is dropped");
        engine.poll();
        assertEquals(3, advances[0], "and no longer advanced");
    }

    /** Starts a thread that runs {@code action} 50 ms from now, while the test's thread waits. */
    private static Thread startSoon(Runnable action) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException ignored) {
                return;
            }
            action.run();
        });
        t.start();
        return t;
    }
}
