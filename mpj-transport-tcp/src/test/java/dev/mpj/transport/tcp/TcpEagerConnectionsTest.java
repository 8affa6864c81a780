package dev.mpj.transport.tcp;

import dev.mpj.runtime.spi.ConnectionStats;
import dev.mpj.runtime.connect.EagerConnections;
import dev.mpj.runtime.connect.EagerReport;
import dev.mpj.runtime.connect.EagerSchedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The eager phase over real TCP transports in one JVM. */
@Timeout(60)
class TcpEagerConnectionsTest {
    @Test
    void eagerRoundsConnectEveryPairExactlyOnce() throws Exception {
        int size = 7;
        EagerReport[] reports = new EagerReport[size];
        try (TcpJob job = TcpJob.start(size)) {
            TcpConnectionRaceTest.inParallel(size, r -> {
                List<EagerSchedule.Step> steps = EagerSchedule.steps(r, size, peer -> true);
                int[] peers = IntStream.range(0, size).filter(p -> p != r).toArray();
                reports[r] = EagerConnections.run(job.rank(r), steps, peers, EagerSchedule.roundCount(size), 2,
                        TimeUnit.SECONDS.toNanos(30));
            });

            int initiated = 0;
            for (int r = 0; r < size; r++) {
                ConnectionStats s = job.rank(r).connectionStats();
                assertEquals(reports[r].initiated(), s.initiated(), "rank " + r + " opened what it scheduled");
                assertEquals(size - 1, s.opened(), "rank " + r + " has one connection per peer");
                assertEquals(0, s.superseded(), "no pair connected from both sides");
                assertEquals(0, s.peersTalkedTo(), "connecting is not talking");
                assertTrue(reports[r].slowestNanos() < TimeUnit.SECONDS.toNanos(1), reports[r].toString());
                initiated += s.initiated();
            }
            assertEquals(size * (size - 1) / 2, initiated);
        }
    }

    @Test
    void framesSentAfterTheEagerPhaseUseItsConnections() throws Exception {
        int size = 3;
        try (TcpJob job = TcpJob.start(size)) {
            TcpConnectionRaceTest.inParallel(size, r -> EagerConnections.run(job.rank(r),
                    EagerSchedule.steps(r, size, peer -> true),
                    IntStream.range(0, size).filter(p -> p != r).toArray(), EagerSchedule.roundCount(size), 8,
                    TimeUnit.SECONDS.toNanos(30)));
            for (int r = 0; r < size; r++) {
                for (int k = 1; k < size; k++) {
                    job.rank(r).send((r + k) % size, TcpJob.header(k, r), TcpJob.payload(16, r));
                }
            }
            for (int r = 0; r < size; r++) {
                job.sink(r).awaitFrames(size - 1, java.time.Duration.ofSeconds(30));
                ConnectionStats s = job.rank(r).connectionStats();
                assertEquals(size - 1, s.opened(), "no connection opened on first use");
                assertEquals(size - 1, s.peersTalkedTo());
            }
        }
    }
}
