package dev.mpj.runtime.node;

import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.PmiCounters;
import dev.mpj.runtime.pmi.RingNeighbours;
import dev.mpj.runtime.pmi.wire.PmiException;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A job of {@code size} PMI clients in one JVM, one per thread, sharing a KVS with the semantics of a real
 * server: a put is visible only after the next barrier, which is collective over all clients. With a ring order
 * ({@link #withRing}) the clients also serve PMIX_Ring, visiting the ranks in that order.
 */
public final class InProcessPmiJob {
    private final int size;
    private final String mapping;
    private final Map<String, String> published = new ConcurrentHashMap<>();
    private final Map<String, String> pending = new ConcurrentHashMap<>();
    private final CyclicBarrier barrier;
    private final String[] ringValues;
    private volatile String[] ringSnapshot;
    private int[] ringOrder;
    private CyclicBarrier ringBarrier;

    public InProcessPmiJob(int size, String mapping) {
        this.size = size;
        this.mapping = mapping;
        this.barrier = new CyclicBarrier(size, () -> {
            published.putAll(pending);
            pending.clear();
        });
        this.ringValues = new String[size];
    }

    /** Serves PMIX_Ring with {@code order[i]} the rank at ring position i. */
    public InProcessPmiJob withRing(int[] order) {
        ringOrder = order.clone();
        ringBarrier = new CyclicBarrier(size, () -> ringSnapshot = ringValues.clone());
        return this;
    }

    public PmiClient client(int rank) {
        return new Client(rank);
    }

    private final class Client implements PmiClient {
        private final int rank;
        private final PmiCounters counters = new PmiCounters();
        private final Map<String, String> mine = new HashMap<>();

        Client(int rank) {
            this.rank = rank;
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public String jobId() {
            return "in-process";
        }

        @Override
        public String processMapping() {
            return mapping;
        }

        @Override
        public int maxValueLength() {
            return 674;
        }

        @Override
        public void put(String key, String value) {
            counters.countPut();
            mine.put(key, value);
        }

        @Override
        public String get(String key) {
            counters.countGet();
            return published.get(key);
        }

        @Override
        public void barrier() {
            counters.countBarrier();
            pending.putAll(mine);
            mine.clear();
            try {
                barrier.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                throw new PmiException("in-process barrier failed", e);
            }
        }

        @Override
        public boolean hasRing() {
            return ringOrder != null;
        }

        @Override
        public RingNeighbours ring(String value) {
            if (ringOrder == null) {
                return PmiClient.super.ring(value);
            }
            counters.countRing();
            ringValues[rank] = value;
            try {
                ringBarrier.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                throw new PmiException("in-process ring failed", e);
            }
            int position = 0;
            while (ringOrder[position] != rank) {
                position++;
            }
            String[] values = ringSnapshot;
            return new RingNeighbours(position, size, values[ringOrder[(position + size - 1) % size]],
                    values[ringOrder[(position + 1) % size]]);
        }

        @Override
        public void finish() {
        }

        @Override
        public void abort(int exitCode, String message) {
        }

        @Override
        public String dialect() {
            return "in-process";
        }

        @Override
        public PmiCounters counters() {
            return counters;
        }

        @Override
        public void close() {
        }
    }
}
