package dev.mpj.transport.tcp;

import dev.mpj.runtime.spi.ConnectionStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** On-demand connections: ranks that connect to each other at the same moment end with one connection per pair. */
@Timeout(120)
class TcpConnectionRaceTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Every rank sends {@code count} frames to every other rank, tag = sequence number, cookie = sender. */
    private static void sendToAll(TcpJob job, int from, int size, int count) {
        for (int seq = 0; seq < count; seq++) {
            for (int k = 1; k < size; k++) {
                int to = (from + k) % size;
                job.rank(from).send(to, TcpJob.header(seq, from), TcpJob.payload(8 + seq % 32, seq));
            }
        }
    }

    private static void assertDeliveredOnceInOrder(TcpJob job, int size, int count) throws InterruptedException {
        for (int r = 0; r < size; r++) {
            job.sink(r).awaitFrames(count * (size - 1), WAIT);
            for (int from = 0; from < size; from++) {
                if (from == r) {
                    continue;
                }
                List<RecordingSink.Received> frames = job.sink(r).framesFrom(from);
                assertEquals(count, frames.size(), "frames from rank " + from + " at rank " + r);
                for (int seq = 0; seq < count; seq++) {
                    assertEquals(seq, frames.get(seq).tag(), "frame from rank " + from + " at rank " + r);
                }
            }
            assertTrue(job.sink(r).lost().isEmpty(), "rank " + r + " lost " + job.sink(r).lost());
        }
    }

    private static ConnectionStats total(TcpJob job, int size) {
        int initiated = 0, accepted = 0, superseded = 0, peers = 0;
        for (int r = 0; r < size; r++) {
            ConnectionStats s = job.rank(r).connectionStats();
            initiated += s.initiated();
            accepted += s.accepted();
            superseded += s.superseded();
            peers += s.peersTalkedTo();
        }
        return new ConnectionStats(initiated, accepted, superseded, peers);
    }

    @Test
    void twoRanksSendingFirstAtOnceShareOneConnectionAndLoseNoFrame() throws Exception {
        int count = 200;
        try (TcpJob job = TcpJob.start(2)) {
            // both attempts exist before either handshake can reach the other side: a certain race
            job.rank(0).send(1, TcpJob.header(0, 0), TcpJob.payload(8, 0));
            job.rank(1).send(0, TcpJob.header(0, 1), TcpJob.payload(8, 0));
            for (int seq = 1; seq < count; seq++) {
                job.rank(0).send(1, TcpJob.header(seq, 0), TcpJob.payload(8 + seq % 32, seq));
                job.rank(1).send(0, TcpJob.header(seq, 1), TcpJob.payload(8 + seq % 32, seq));
            }

            assertDeliveredOnceInOrder(job, 2, count);
            // the losing side learns it from the HELLO_ACK, which may trail the frames on the winner
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (total(job, 2).superseded() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            ConnectionStats s = total(job, 2);
            assertEquals(1, s.initiated(), "connections opened");
            assertEquals(1, s.accepted(), "connections accepted");
            assertEquals(1, s.superseded(), "attempts that lost the tie-break");
            assertEquals(1, job.rank(0).connectionStats().initiated(), "the lower rank's connection wins");
        }
    }

    @Test
    void manyPairsConnectingAtOnceEndWithOneConnectionPerPairEveryTime() throws Exception {
        int size = 5;
        int count = 40;
        int superseded = 0;
        for (int repeat = 0; repeat < 12; repeat++) {
            try (TcpJob job = TcpJob.start(size)) {
                inParallel(size, r -> sendToAll(job, r, size, count));

                assertDeliveredOnceInOrder(job, size, count);
                ConnectionStats s = total(job, size);
                assertEquals(size * (size - 1) / 2, s.initiated(), "connections opened, repeat " + repeat);
                assertEquals(size * (size - 1) / 2, s.accepted(), "connections accepted, repeat " + repeat);
                assertEquals(size * (size - 1), s.peersTalkedTo(), "peers talked to, repeat " + repeat);
                superseded += s.superseded();
            }
        }
        assertTrue(superseded > 0, "no simultaneous connect happened: the race was not exercised");
    }

    interface RankBody {
        void run(int rank) throws Exception;
    }

    /** Runs {@code body} for every rank on its own thread, released at the same moment, and waits for all. */
    static void inParallel(int size, RankBody body) throws Exception {
        CyclicBarrier together = new CyclicBarrier(size);
        ExecutorService threads = Executors.newFixedThreadPool(size);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                int rank = r;
                all.add(threads.submit(() -> {
                    together.await();
                    body.run(rank);
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
