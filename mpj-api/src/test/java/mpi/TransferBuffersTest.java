package mpi;

import static mpi.MpiTestSupport.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Point-to-point transfers of arrays other than {@code byte[]} pack into, and land in, buffers lent by the thread's
 * {@link TransferBuffers}: given back when the transfer completes and lent again, never while the runtime may
 * still read them, and kept within bounds.
 */
class TransferBuffersTest extends MpiTestSupport {
    private static final int MIB = 1 << 20;

    @Test
    void aBufferGivenBackIsLentAgainForAShorterLength() {
        TransferBuffers buffers = new TransferBuffers();
        ByteBuffer first = buffers.take(1000);
        buffers.keep(first);
        ByteBuffer again = buffers.take(800);
        assertSame(first, again);
        assertEquals(0, again.position());
        assertEquals(800, again.limit());
        assertEquals(ByteOrder.LITTLE_ENDIAN, again.order());
        assertNotSame(again, buffers.take(800), "a lent buffer is not lent twice");
    }

    @Test
    void theSmallestBufferThatFitsIsLent() {
        TransferBuffers buffers = new TransferBuffers();
        ByteBuffer large = ByteBuffer.allocate(4096);
        ByteBuffer small = ByteBuffer.allocate(512);
        buffers.keep(large);
        buffers.keep(small);
        assertSame(small, buffers.take(500));
        assertSame(large, buffers.take(500));
    }

    @Test
    void keepsAtMostSixteenBuffersAndFourMiBPreferringLargerOnes() {
        TransferBuffers buffers = new TransferBuffers();
        for (int i = 1; i <= 20; i++) {
            buffers.keep(ByteBuffer.allocate(i * 100));
        }
        assertEquals(16, buffers.spares());
        assertEquals(sumOfHundreds(5, 20), buffers.keptBytes(), "the four smallest made way");
        for (int i = 0; i < 6; i++) {
            buffers.keep(ByteBuffer.allocate(MIB));
        }
        assertTrue(buffers.keptBytes() <= TransferBuffers.MAX_KEPT_BYTES, "bytes kept " + buffers.keptBytes());
        buffers.keep(ByteBuffer.allocate(TransferBuffers.MAX_KEPT_BYTES + 1));
        assertTrue(buffers.keptBytes() <= TransferBuffers.MAX_KEPT_BYTES, "a buffer above the bound is not kept");
    }

    @Test
    void aSendStillInProgressKeepsItsPackedDataUntilItCompletes() {
        start(2, 0);
        backend.eagerToPeers = false;
        Request first = MPI.COMM_WORLD.Isend(new double[] {1.5, 2.5, 3.5}, 0, 3, MPI.DOUBLE, 1, 7);
        Request second = MPI.COMM_WORLD.Isend(new double[] {-4, -5, -6}, 0, 3, MPI.DOUBLE, 1, 8);
        assertArrayEquals(new double[] {1.5, 2.5, 3.5}, doublesOf(backend.takeSent(1).data()));
        assertArrayEquals(new double[] {-4, -5, -6}, doublesOf(backend.takeSent(1).data()));
        first.Wait();
        second.Wait();
    }

    @Test
    void aHaloExchangeWithTwelveTransfersInFlightTakesThemAllFromTheSparesOfTheRoundBefore() {
        start(2, 0);
        backend.eagerToPeers = false;
        TransferBuffers buffers = emptiedPoolOfThisThread();
        int face = 16 * 1024; // a face of an N = 128 block: above the eager threshold, so its send waits for its receiver
        double[][] out = new double[6][face];
        double[][] in = new double[6][face];
        for (int round = 0; round < 3; round++) {
            Request[] requests = new Request[12];
            for (int dir = 0; dir < 6; dir++) {
                requests[dir] = MPI.COMM_WORLD.Irecv(in[dir], 0, face, MPI.DOUBLE, 1, dir ^ 1);
            }
            for (int dir = 0; dir < 6; dir++) {
                java.util.Arrays.fill(out[dir], round * 10 + dir);
                requests[6 + dir] = MPI.COMM_WORLD.Isend(out[dir], 0, face, MPI.DOUBLE, 1, dir);
            }
            assertEquals(0, buffers.spares(), "all twelve buffers are lent while the transfers are in flight");
            for (int dir = 0; dir < 6; dir++) {
                // rank 1 sends each face straight back, with the tag of the opposite direction
                byte[] back = backend.takeSent(1).data();
                backend.deliver(1, dir ^ 1, WORLD, back);
            }
            Request.Waitall(requests);
            for (int dir = 0; dir < 6; dir++) {
                assertEquals(round * 10 + dir, in[dir][face - 1], "face " + dir + " of round " + round);
            }
            assertEquals(12, buffers.spares(), "round " + round + " gave all twelve buffers back to be lent again");
            assertEquals(12L * face * Double.BYTES, buffers.keptBytes());
        }
    }

    @Test
    void completedSendsAndReceivesOfDoublesReuseOneBuffer() {
        start(1, 0);
        TransferBuffers buffers = emptiedPoolOfThisThread();
        double[] received = new double[64];
        for (int round = 0; round < 3; round++) {
            double[] sent = new double[64];
            java.util.Arrays.fill(sent, round + 0.25);
            Request receive = MPI.COMM_WORLD.Irecv(received, 0, 64, MPI.DOUBLE, 0, round);
            MPI.COMM_WORLD.Send(sent, 0, 64, MPI.DOUBLE, 0, round);
            receive.Wait();
            assertArrayEquals(sent, received);
        }
        assertEquals(2, buffers.spares(), "each round's receive and send gave back the two buffers and took them again");
    }

    @Test
    void blockingReceivesOfLongsReuseTheirRoomAndATruncatedOneKeepsItOut() {
        start(1, 0);
        TransferBuffers buffers = emptiedPoolOfThisThread();
        long[] received = new long[8];
        int steady = -1;
        for (int round = 0; round < 3; round++) {
            long[] sent = {round, -round, 7, 8};
            MPI.COMM_WORLD.Send(sent, 0, 4, MPI.LONG, 0, round);
            Status status = MPI.COMM_WORLD.Recv(received, 2, 6, MPI.LONG, 0, MPI.ANY_TAG);
            assertArrayEquals(new long[] {0, 0, round, -round, 7, 8, 0, 0}, received);
            assertEquals(4, status.Get_count(MPI.LONG));
            assertEquals(round, status.tag);
            assertEquals(0, status.source);
            if (round == 0) {
                steady = buffers.spares();
                assertTrue(steady > 0, "the receive's room went back");
            }
            assertEquals(steady, buffers.spares(), "each round takes the buffers the last one gave back");
            java.util.Arrays.fill(received, 0);
        }
        MPI.COMM_WORLD.Send(new long[4], 0, 4, MPI.LONG, 0, 9);
        assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Recv(received, 0, 3, MPI.LONG, 0, 9));
        assertEquals(steady - 1, buffers.spares(), "a failed receive's room stays out of the pool");
    }

    @Test
    void sendsOfSharedSizesPackIntoTheBackendsMemoryAndReuseItWhileReceivesAndSmallSendsKeepHeapBuffers() {
        start(2, 0);
        backend.transferMemoryFrom = 1000;
        TransferBuffers buffers = new TransferBuffers();
        ByteBuffer shared = buffers.takeForSend(2000, backend);
        assertTrue(shared.isDirect(), "a rendezvous-sized send packs into the backend's memory");
        assertEquals(List.of(shared), backend.transferMemory);
        assertEquals(2000, shared.limit());
        buffers.keep(shared);
        assertFalse(buffers.take(1500).isDirect(), "a receive's room is never the backend's memory");
        assertFalse(buffers.takeForSend(999, backend).isDirect(), "nor is a send below the backend's size");
        assertSame(shared, buffers.takeForSend(1500, backend), "kept and lent again");
        assertEquals(1, backend.transferMemory.size(), "no more memory asked for");
        assertFalse(buffers.takeForSend(TransferBuffers.MAX_KEPT_BYTES + 1, backend).isDirect(),
                "a send too large to keep its buffer packs into the heap");
        buffers.keep(shared);
        for (int i = 0; i < TransferBuffers.MAX_KEPT; i++) {
            buffers.keep(ByteBuffer.allocate(TransferBuffers.MAX_KEPT_BYTES / TransferBuffers.MAX_KEPT));
        }
        assertEquals(List.of(), backend.transferMemory, "memory that made way for larger spares went back");
    }

    @Test
    void withoutASharingBackendSendsPackIntoTheHeap() {
        start(1, 0);
        TransferBuffers buffers = new TransferBuffers();
        assertFalse(buffers.takeForSend(1 << 20, backend).isDirect());
        assertFalse(buffers.takeForSend(1 << 20, null).isDirect(), "nor after Finalize");
        assertEquals(List.of(), backend.transferMemory);
    }

    @Test
    void threadsTakingTurnsEachFindTheirOwnSpares() throws Exception {
        TransferBuffers mine = TransferBuffers.ofThread();
        TransferBuffers[] others = new TransferBuffers[2];
        TransferBuffers[] minePerTurn = new TransferBuffers[2];
        for (int turn = 0; turn < 2; turn++) {
            int t = turn;
            Thread other = new Thread(() -> others[t] = TransferBuffers.ofThread());
            other.start();
            other.join();
            minePerTurn[turn] = TransferBuffers.ofThread();
        }
        assertNotSame(mine, others[0], "a thread never finds the spares of the thread that asked before it");
        assertNotSame(others[0], others[1], "each thread has its own spares");
        assertSame(mine, minePerTurn[0], "after another thread asked, this thread finds its own spares again");
        assertSame(mine, minePerTurn[1]);
        assertSame(mine, TransferBuffers.ofThread(), "and again when it asks twice in a row");
    }

    private static long sumOfHundreds(int from, int to) {
        long sum = 0;
        for (int i = from; i <= to; i++) {
            sum += i * 100L;
        }
        return sum;
    }

    private static double[] doublesOf(byte[] wire) {
        double[] values = new double[wire.length / 8];
        ByteBuffer.wrap(wire).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(values);
        return values;
    }

    /** This thread's pool, emptied of what earlier tests on the thread left in it. */
    private static TransferBuffers emptiedPoolOfThisThread() {
        TransferBuffers buffers = TransferBuffers.ofThread();
        while (buffers.spares() > 0) {
            buffers.take(0);
        }
        return buffers;
    }
}
