package dev.mpj.transport.tcp;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.spi.FrameHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class TcpFrameDeliveryTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Each rank's thread sends {@code count} frames, tag = sequence number, to its partner. */
    private static void sendSequence(TcpJob job, int from, int to, int count) {
        for (int seq = 0; seq < count; seq++) {
            job.rank(from).send(to, TcpJob.header(seq, from * 1_000_000L + seq), TcpJob.payload(8 + seq % 64, seq));
        }
    }

    /** Runs both at the same moment, each on its own thread (as two ranks' MPI threads), and waits for both. */
    private static void inParallel(Runnable first, Runnable second) throws Exception {
        CyclicBarrier together = new CyclicBarrier(2);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<?> a = threads.submit(() -> {
                together.await();
                first.run();
                return null;
            });
            Future<?> b = threads.submit(() -> {
                together.await();
                second.run();
                return null;
            });
            a.get();
            b.get();
        } finally {
            threads.shutdownNow();
        }
    }

    private static void assertSequence(List<RecordingSink.Received> frames, int from, int count) {
        assertEquals(count, frames.size(), "frames from rank " + from);
        for (int seq = 0; seq < count; seq++) {
            RecordingSink.Received f = frames.get(seq);
            assertEquals(from, f.peer());
            assertEquals(seq, f.tag(), "frame " + seq + " out of order");
            assertEquals(from * 1_000_000L + seq, f.cookie());
            assertArrayEquals(TcpJob.payload(8 + seq % 64, seq).array(), f.payload());
            assertTrue(f.littleEndian());
        }
    }

    @Test
    void framesArriveCompleteAndInOrderInBothDirectionsAtOnce() throws Exception {
        int count = 10_000;
        try (TcpJob job = TcpJob.start(2)) {
            inParallel(() -> sendSequence(job, 0, 1, count), () -> sendSequence(job, 1, 0, count));

            job.sink(1).awaitFrames(count, WAIT);
            job.sink(0).awaitFrames(count, WAIT);

            assertSequence(job.sink(1).framesFrom(0), 0, count);
            assertSequence(job.sink(0).framesFrom(1), 1, count);
        }
    }

    @Test
    void payloadsOfEdgeSizesArriveIntact() throws Exception {
        int largest = Settings.defaults().tcpMaxFrame() - FrameHeader.LENGTH;
        int[] sizes = {0, 1, 64 * 1024, largest - 1, largest};
        try (TcpJob job = TcpJob.start(2)) {
            for (int i = 0; i < sizes.length; i++) {
                job.rank(0).send(1, TcpJob.header(i, 0), TcpJob.payload(sizes[i], i));
            }

            List<RecordingSink.Received> frames = job.sink(1).awaitFrames(sizes.length, WAIT);

            for (int i = 0; i < sizes.length; i++) {
                assertEquals(i, frames.get(i).tag());
                assertArrayEquals(TcpJob.payload(sizes[i], i).array(), frames.get(i).payload(), "size " + sizes[i]);
            }
        }
    }

    /** On loopback both ranks usually connect here, so each direction may use its own connection. */
    @Test
    void ranksSendingToEachOtherFirstAtTheSameMomentDeliverEveryFrameOnceInOrder() throws Exception {
        int count = 2_000;
        for (int round = 0; round < 5; round++) {
            try (TcpJob job = TcpJob.start(2)) {
                inParallel(() -> sendSequence(job, 0, 1, count), () -> sendSequence(job, 1, 0, count));

                job.sink(1).awaitFrames(count, WAIT);
                job.sink(0).awaitFrames(count, WAIT);
                Thread.sleep(20); // a duplicate would arrive right behind

                assertSequence(job.sink(1).frames(), 0, count);
                assertSequence(job.sink(0).frames(), 1, count);
            }
        }
    }

    @Test
    void replyTravelsOnTheConnectionThePeerOpened() throws Exception {
        try (TcpJob job = TcpJob.start(3)) {
            job.rank(0).send(2, TcpJob.header(1, 0), TcpJob.payload(3, 1));
            job.sink(2).awaitFrames(1, WAIT);

            job.rank(2).send(0, TcpJob.header(2, 0), TcpJob.payload(3, 2));

            RecordingSink.Received reply = job.sink(0).awaitFrames(1, WAIT).get(0);
            assertEquals(2, reply.peer());
            assertEquals(2, reply.tag());
            assertEquals(1, job.rank(2).connections().size());
            assertEquals(1, job.rank(0).connections().size());
        }
    }

    @Test
    void framesSentJustBeforeCloseAreDelivered() throws Exception {
        try (TcpJob job = TcpJob.start(2)) {
            for (int seq = 0; seq < 100; seq++) {
                job.rank(0).send(1, TcpJob.header(seq, 0), TcpJob.payload(1000, seq));
            }
            job.rank(0).close();

            List<RecordingSink.Received> frames = job.sink(1).awaitFrames(100, WAIT);
            for (int seq = 0; seq < 100; seq++) {
                assertEquals(seq, frames.get(seq).tag());
            }
        }
    }

    @Test
    void sendLeavesTheCallersBuffersUnchanged() throws Exception {
        try (TcpJob job = TcpJob.start(2)) {
            ByteBuffer header = TcpJob.header(7, 0);
            ByteBuffer payload = TcpJob.payload(100, 7).position(10);

            job.rank(0).send(1, header, payload);

            assertEquals(0, header.position());
            assertEquals(10, payload.position());
            assertArrayEquals(Arrays.copyOfRange(TcpJob.payload(100, 7).array(), 10, 100),
                    job.sink(1).awaitFrames(1, WAIT).get(0).payload());
        }
    }

    @Test
    void frameLongerThanMaxFrameIsRefusedBySend() throws Exception {
        int tooLong = Settings.defaults().tcpMaxFrame() - FrameHeader.LENGTH + 1;
        try (TcpJob job = TcpJob.start(2)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> job.rank(0).send(1, TcpJob.header(0, 0), ByteBuffer.allocate(tooLong)));
            assertTrue(e.getMessage().contains("mpj.tcp.maxFrame"), e.getMessage());
        }
    }

    @Test
    void sendRejectsAnUnknownKindAShortHeaderItselfAndAnUnknownRank() throws Exception {
        try (TcpJob job = TcpJob.start(2)) {
            TcpTransport t = job.rank(0);
            ByteBuffer empty = ByteBuffer.allocate(0);
            assertThrows(IllegalArgumentException.class, () -> t.send(1, TcpJob.header((byte) 99, 0, 0), empty));
            assertThrows(IllegalArgumentException.class, () -> t.send(1, ByteBuffer.allocate(31), empty));
            assertThrows(IllegalArgumentException.class, () -> t.send(0, TcpJob.header(0, 0), empty));
            assertThrows(IllegalArgumentException.class, () -> t.send(2, TcpJob.header(0, 0), empty));
        }
    }

    @Test
    void sendAfterCloseIsAnError() throws Exception {
        try (TcpJob job = TcpJob.start(2)) {
            job.rank(0).close();

            assertThrows(IllegalStateException.class,
                    () -> job.rank(0).send(1, TcpJob.header(0, 0), ByteBuffer.allocate(0)));
        }
    }
}
