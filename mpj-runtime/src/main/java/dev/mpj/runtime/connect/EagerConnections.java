package dev.mpj.runtime.connect;

import dev.mpj.runtime.spi.PeerConnector;
import dev.mpj.runtime.config.Settings;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * The eager phase of {@code MPI.Init}: waits until every rank's transport can accept connections, issues this
 * rank's connects in {@link EagerSchedule} order with at most {@code window} in flight, times each, then waits until
 * every TCP peer is connected (the connects of the peers that open the pair included).
 * <p>
 * The job-wide wait comes first so that a connect's time is the network's and the handshake's: a connect issued to
 * a peer whose event loops are still starting sits in that peer's backlog for as long as its JVM takes to start
 * them (seconds when many cold JVMs share few cores), which would look like the SYN retries the times are there to
 * catch.
 */
public final class EagerConnections {
    private EagerConnections() {
    }

    /**
     * Runs the phase for {@code rank} of a job of {@code size}, connecting to the peers {@code viaConnector}
     * accepts, with {@code mpj.connectWindow} connects in flight and {@code mpj.initTimeout} for the whole.
     *
     * @param allReady collective over the job (a PMI barrier): returns once every rank has called it
     */
    public static EagerReport forJob(PeerConnector connector, int rank, int size, IntPredicate viaConnector,
                                     Settings settings, Runnable allReady) throws InterruptedException {
        int[] peers = IntStream.range(0, size).filter(p -> p != rank && viaConnector.test(p)).toArray();
        return run(connector, EagerSchedule.steps(rank, size, viaConnector), peers, EagerSchedule.roundCount(size),
                settings.connectWindow(), TimeUnit.SECONDS.toNanos(settings.initTimeoutSeconds()),
                allReady);
    }

    /** {@link #run(PeerConnector, List, int[], int, int, long, Runnable)} without the job-wide wait. */
    public static EagerReport run(PeerConnector connector, List<EagerSchedule.Step> steps, int[] peers, int rounds,
                                  int window, long timeoutNanos) throws InterruptedException {
        return run(connector, steps, peers, rounds, window, timeoutNanos, () -> { });
    }

    /**
     * Runs the phase.
     *
     * @param steps    this rank's connects, from {@link EagerSchedule#steps}
     * @param peers    every peer that needs a connection, in either direction
     * @param rounds   rounds of the schedule ({@link EagerSchedule#roundCount})
     * @param window   connects in flight at once, at least 1
     * @param timeoutNanos how long the whole phase may take
     * @param allReady     called once this rank's transport is ready; returns when every rank's is
     * @throws IllegalStateException if a peer cannot be connected or the phase outlasts the timeout
     */
    public static EagerReport run(PeerConnector connector, List<EagerSchedule.Step> steps, int[] peers, int rounds,
                                  int window, long timeoutNanos, Runnable allReady) throws InterruptedException {
        if (window < 1) {
            throw new IllegalArgumentException("connect window must be >= 1, not " + window);
        }
        long start = System.nanoTime();
        long deadline = start + timeoutNanos;
        await(connector.ready(), -1, deadline, timeoutNanos);
        allReady.run();
        long readyNanos = System.nanoTime() - start;
        long[] slowest = new long[rounds];
        Semaphore inFlight = new Semaphore(window);
        CompletableFuture<?>[] issued = new CompletableFuture<?>[steps.size()];
        for (int i = 0; i < issued.length; i++) {
            EagerSchedule.Step step = steps.get(i);
            if (!inFlight.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException("eager connections: connects still in flight after "
                        + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
            }
            long t0 = System.nanoTime();
            issued[i] = connector.connect(step.peer()).whenComplete((ok, failure) -> {
                long took = System.nanoTime() - t0;
                synchronized (slowest) {
                    slowest[step.round() - 1] = Math.max(slowest[step.round() - 1], took);
                }
                inFlight.release();
            });
        }
        for (int peer : peers) {
            await(connector.connected(peer), peer, deadline, timeoutNanos);
        }
        for (int i = 0; i < issued.length; i++) {
            await(issued[i], steps.get(i).peer(), deadline, timeoutNanos);
        }
        synchronized (slowest) {
            return new EagerReport(issued.length, slowest.clone(), readyNanos, System.nanoTime() - start);
        }
    }

    private static void await(CompletableFuture<?> f, int peer, long deadline, long timeoutNanos)
            throws InterruptedException {
        try {
            f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("eager connections: " + (peer < 0 ? "transport did not start"
                    : "cannot connect with rank " + peer) + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("eager connections: " + (peer < 0 ? "transport not started"
                    : "rank " + peer + " not connected") + " after " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                    + " ms");
        }
    }
}
