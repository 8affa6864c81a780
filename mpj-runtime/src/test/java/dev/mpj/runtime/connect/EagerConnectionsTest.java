package dev.mpj.runtime.connect;

import dev.mpj.runtime.spi.PeerConnector;
import dev.mpj.runtime.spi.ConnectionStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class EagerConnectionsTest {
    /** Records the connects it is asked for; a test completes them. */
    private static final class FakeConnector implements PeerConnector {
        final List<Integer> connectsIssued = new ArrayList<>();
        final Map<Integer, CompletableFuture<Void>> links = new ConcurrentHashMap<>();
        int mostInFlight;
        final boolean completeAtOnce;

        FakeConnector(boolean completeAtOnce) {
            this.completeAtOnce = completeAtOnce;
        }

        @Override
        public CompletableFuture<Void> ready() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public synchronized CompletableFuture<Void> connect(int peer) {
            connectsIssued.add(peer);
            CompletableFuture<Void> link = connected(peer);
            mostInFlight = Math.max(mostInFlight,
                    (int) connectsIssued.stream().filter(p -> !connected(p).isDone()).count());
            if (completeAtOnce) {
                link.complete(null);
            }
            return link;
        }

        @Override
        public CompletableFuture<Void> connected(int peer) {
            return links.computeIfAbsent(peer, p -> new CompletableFuture<>());
        }

        @Override
        public ConnectionStats connectionStats() {
            return ConnectionStats.NONE;
        }
    }

    private static final long TEN_SECONDS = TimeUnit.SECONDS.toNanos(10);

    @Test
    void noConnectIsIssuedBeforeEveryRankIsReady() throws InterruptedException {
        FakeConnector connector = new FakeConnector(true);
        List<Integer> issuedWhenAllReadyRan = new ArrayList<>();
        List<EagerSchedule.Step> steps = EagerSchedule.steps(0, 8, p -> true);
        int[] peers = {1, 2, 3, 4, 5, 6, 7};
        for (int p = 5; p < 8; p++) { // peers that open the pair themselves
            connector.connected(p).complete(null);
        }

        EagerConnections.run(connector, steps, peers, EagerSchedule.roundCount(8), 32, TEN_SECONDS,
                () -> issuedWhenAllReadyRan.addAll(connector.connectsIssued));

        assertTrue(issuedWhenAllReadyRan.isEmpty(), "connects issued before the job-wide wait: " + issuedWhenAllReadyRan);
        assertEquals(steps.stream().map(EagerSchedule.Step::peer).toList(), connector.connectsIssued);
    }

    @Test
    void theJobWideWaitCountsAsStartWaitNotAsConnectTime() throws InterruptedException {
        FakeConnector connector = new FakeConnector(true);
        List<EagerSchedule.Step> steps = EagerSchedule.steps(0, 4, p -> true);
        connector.connected(3).complete(null);

        EagerReport report = EagerConnections.run(connector, steps, new int[]{1, 2, 3}, EagerSchedule.roundCount(4),
                32, TEN_SECONDS, () -> sleep(200));

        assertTrue(report.startWaitNanos() >= TimeUnit.MILLISECONDS.toNanos(200), report::toString);
        assertTrue(report.slowestNanos() < TimeUnit.MILLISECONDS.toNanos(200), report::toString);
        assertEquals(steps.size(), report.initiated());
    }

    @Test
    void connectsInFlightNeverExceedTheWindow() throws InterruptedException {
        FakeConnector connector = new FakeConnector(false);
        List<EagerSchedule.Step> steps = EagerSchedule.steps(0, 16, p -> true);
        int[] peers = java.util.stream.IntStream.range(1, 16).toArray();
        Thread completer = new Thread(() -> { // completes the peers' links one at a time, slowly
            for (int p = 1; p < 16; p++) {
                sleep(20);
                connector.connected(p).complete(null);
            }
        });
        completer.start();

        EagerConnections.run(connector, steps, peers, EagerSchedule.roundCount(16), 2, TEN_SECONDS);

        assertTrue(connector.mostInFlight <= 2, "connects in flight: " + connector.mostInFlight);
        assertEquals(steps.stream().map(EagerSchedule.Step::peer).toList(), connector.connectsIssued);
        completer.join();
    }

    @Test
    void aPeerThatNeverConnectsFailsThePhaseNamingIt() {
        FakeConnector connector = new FakeConnector(true);
        List<EagerSchedule.Step> steps = EagerSchedule.steps(0, 4, p -> true);

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> EagerConnections.run(connector,
                steps, new int[]{1, 2, 3}, EagerSchedule.roundCount(4), 32, TimeUnit.MILLISECONDS.toNanos(200)));

        assertTrue(e.getMessage().contains("rank 3 not connected"), e.getMessage());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
