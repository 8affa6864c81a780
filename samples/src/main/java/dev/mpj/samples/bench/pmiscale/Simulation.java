package dev.mpj.samples.bench.pmiscale;

import dev.mpj.runtime.pmi.SharedKvsTable;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One simulated job against a PMI server: every rank connects and starts, then, once all have, the exchange runs
 * on all of them at once and is timed until the last rank is done, then all finalize. The ranks are spread over
 * a few {@link RankDriver} threads.
 */
final class Simulation {
    /**
     * What a job did: the steps completed over all ranks, by {@link Step.Op}, the exchange's wall time, and the CPU
     * time this process spent meanwhile (its server's too when it runs in this process).
     */
    record Result(long[] counts, double seconds, double cpuSeconds) {
        long count(Step.Op op) {
            return counts[op.ordinal()];
        }

        /** The gets the node's shared table answered, without a request. */
        long tableGets() {
            return counts[counts.length - 1];
        }
    }

    private final List<CountDownLatch> arrivals = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** Each announced table, mapped once for all the simulated ranks of its node, as one node's ranks share it. */
    private final Map<String, SharedKvsTable> tables = new ConcurrentHashMap<>();
    private volatile int part;

    private Simulation(int size) {
        for (int i = 0; i < 3; i++) {
            arrivals.add(new CountDownLatch(size));
        }
    }

    /**
     * Runs {@code exchange} for the job whose node n's ranks connect to {@code server[n]}, with {@code threads}
     * driver threads; with {@code sharedTable} the ranks answer gets from the KVS table the server announces.
     *
     * @throws IOException when a rank fails (a wrong reply, a closed connection) or the job takes over {@code limit}
     */
    static Result run(String exchange, RankScript.Job job, InetSocketAddress[] server, int threads, Duration limit,
                      boolean sharedTable) throws IOException {
        int size = job.map().size();
        Simulation s = new Simulation(size);
        List<List<SimulatedRank>> shares = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            shares.add(new ArrayList<>());
        }
        for (int r = 0; r < size; r++) {
            shares.get(r % threads).add(new SimulatedRank(r, RankScript.of(exchange, job, r), job,
                    sharedTable ? s::table : path -> null));
        }
        List<RankDriver> drivers = new ArrayList<>();
        List<Thread> running = new ArrayList<>();
        long deadline = System.nanoTime() + limit.toNanos();
        try {
            for (List<SimulatedRank> share : shares) {
                RankDriver d = new RankDriver(s, job, server, share);
                drivers.add(d);
                Thread thread = new Thread(d, "pmi-scale-" + running.size());
                thread.setDaemon(true);
                running.add(thread);
                thread.start();
            }
            s.await(0, deadline, exchange);
            long start = System.nanoTime();
            long cpuStart = processCpuNanos();
            s.open(1, drivers);
            s.await(1, deadline, exchange);
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuSeconds = (processCpuNanos() - cpuStart) / 1e9;
            s.open(2, drivers);
            s.await(2, deadline, exchange);
            long[] counts = new long[Step.Op.values().length + 1];
            for (RankDriver d : drivers) {
                for (int i = 0; i < counts.length; i++) {
                    counts[i] += d.counts()[i];
                }
            }
            return new Result(counts, seconds, cpuSeconds);
        } finally {
            if (s.failure.get() == null) {
                s.failure.compareAndSet(null, new IllegalStateException("the simulation ended"));
            }
            drivers.forEach(RankDriver::wakeup);
            for (Thread t : running) {
                try {
                    t.join(TimeUnit.SECONDS.toMillis(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** The table at {@code path}, mapped on first use; null when it cannot be (the ranks then ask the server). */
    private SharedKvsTable table(String path) {
        return tables.computeIfAbsent(path, SharedKvsTable::openIfPossible);
    }

    /** This process's CPU time so far, or 0 where the JVM does not tell. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? Math.max(0, os.getProcessCpuTime()) : 0;
    }

    private void open(int next, List<RankDriver> drivers) {
        part = next;
        drivers.forEach(RankDriver::wakeup);
    }

    private void await(int p, long deadline, String exchange) throws IOException {
        try {
            while (!arrivals.get(p).await(100, TimeUnit.MILLISECONDS)) {
                Throwable f = failure.get();
                if (f != null) {
                    throw new IOException("simulated " + exchange + " job failed: " + f, f);
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("simulated " + exchange + " job of " + arrivals.get(p).getCount()
                            + " unfinished ranks passed its time limit in part " + p);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    int part() {
        return part;
    }

    boolean failed() {
        return failure.get() != null;
    }

    void fail(Throwable t) {
        failure.compareAndSet(null, t);
    }

    void arrived(int p) {
        arrivals.get(p).countDown();
    }
}
