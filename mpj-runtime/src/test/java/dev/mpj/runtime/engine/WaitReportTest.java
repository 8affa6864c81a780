package dev.mpj.runtime.engine;

import dev.mpj.api.WaitCondition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WaitReportTest {
    /** A wait that names two pending operations and ends when {@code release} counts down. */
    private static final class TwoPending implements WaitCondition {
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public boolean getAsBoolean() {
            return release.getCount() == 0;
        }

        @Override
        public void describePending(List<String> entries) {
            entries.add("Waitall for Irecv(source=0, tag=7, COMM_WORLD)");
            entries.add("Waitall for Isend(dest=2, tag=7, COMM_WORLD)");
        }
    }

    @Test
    void aDescribedWaitGivesOneLinePerPendingOperationWithItsDurationAndTheQueue() {
        List<String> lines = WaitReport.lines(1, new TwoPending(), 10_049_000_000L, 3);
        assertEquals(List.of(
                "rank 1 waits in Waitall for Irecv(source=0, tag=7, COMM_WORLD) for 10.0 s; unexpected queue: 3",
                "rank 1 waits in Waitall for Isend(dest=2, tag=7, COMM_WORLD) for 10.0 s; unexpected queue: 3"),
                lines);
        lines.forEach(l -> assertTrue(WaitReport.LINE.matcher(l).matches(), l));
    }

    @Test
    void anUndescribedWaitAndNoWaitAreSaidToo() {
        BooleanSupplier internal = () -> false;
        assertEquals(List.of("rank 0 waits in a collective or another internal wait for 1.5 s; unexpected queue: 0"),
                WaitReport.lines(0, internal, 1_500_000_000L, 0));
        assertEquals(List.of("rank 2 is not waiting in an MPI call; unexpected queue: 1"),
                WaitReport.lines(2, null, 0, 1));
        assertTrue(WaitReport.LINE.matcher(WaitReport.waitsIn(-1, "MPI.Init", 0, 0)).matches());
    }

    @Test
    @Timeout(30)
    void anotherThreadSeesWhatTheBlockedThreadWaitsInAndTheUnexpectedQueue() throws Exception {
        EngineHarness h = new EngineHarness(2, 1024, 4096);
        ProgressEngine engine = h.get(1);
        h.get(0).send(ByteBuffer.allocate(4), 1, 5, 0, dev.mpj.api.SendMode.STANDARD);
        h.pumpAll(); // an unexpected message: tag 5 is never received
        TwoPending wait = new TwoPending();
        Thread mpi = new Thread(() -> engine.await(wait), "mpi");
        assertEquals(List.of("rank 1 is not waiting in an MPI call; unexpected queue: 1"), engine.waitReport());
        mpi.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        List<String> report;
        while ((report = engine.waitReport()).size() != 2) {
            assertTrue(System.nanoTime() < deadline, report::toString);
            Thread.sleep(5);
        }
        assertTrue(report.get(0).startsWith("rank 1 waits in Waitall for Irecv(source=0, tag=7, COMM_WORLD) for "),
                report.toString());
        assertTrue(report.get(1).endsWith("; unexpected queue: 1"), report.toString());
        wait.release.countDown();
        mpi.join();
        assertEquals(List.of("rank 1 is not waiting in an MPI call; unexpected queue: 1"), engine.waitReport());
    }

    @Test
    void theRuntimesOwnWaitsNameTheirOperationsInWorldTerms() {
        EngineHarness h = new EngineHarness(3, 1024, 4096);
        ProgressEngine engine = h.get(1);
        dev.mpj.api.Operation receive = engine.receive(ByteBuffer.allocate(4), 0, 3, 5);
        dev.mpj.api.Operation send = engine.send(ByteBuffer.allocate(4096), 2, 4, 5, dev.mpj.api.SendMode.STANDARD);
        List<String> lines = WaitReport.lines(1, new dev.mpj.api.AllComplete(receive, null, send), 0, 0);
        assertEquals(List.of(
                "rank 1 waits in an internal receive(world source=0, tag=3, context 5) for 0.0 s; unexpected queue: 0",
                "rank 1 waits in an internal send(world dest=2, tag=4, context 5) for 0.0 s; unexpected queue: 0"),
                lines);
    }
}
