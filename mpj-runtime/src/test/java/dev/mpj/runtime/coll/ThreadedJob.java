package dev.mpj.runtime.coll;

import dev.mpj.api.Arrival;
import dev.mpj.api.CommSpec;
import dev.mpj.api.Envelope;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.PendingCall;
import dev.mpj.api.SendMode;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.NodeMap;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * A job of {@code n} ranks in one JVM, one thread per rank: each rank has its own {@link ProgressEngine}
 * behind a point-to-point {@link MpiBackend} facade, and the engines hand frames straight to each other.
 * A small eager threshold sends the larger test messages through rendezvous. Given a node map, the collectives
 * know it (so they may run node-aware) and the job counts the frames that pass between nodes.
 */
final class ThreadedJob {
    /** What one rank runs: its collectives and its view of the world communicator. */
    interface RankBody {
        void run(Collectives coll, CommSpec world) throws Exception;
    }

    private final ProgressEngine[] engines;
    private final Collectives[] collectives;
    private final NonBlockingCollectives[] nonBlocking;
    private final AtomicLong crossNodeFrames = new AtomicLong();

    ThreadedJob(int n, CollectiveTuning tuning) {
        this(n, tuning, null);
    }

    ThreadedJob(int n, CollectiveTuning tuning, NodeMap nodes) {
        Settings settings = Settings.defaults()
                .with(Setting.EAGER_THRESHOLD, "4096")
                .with(Setting.RENDEZVOUS_CHUNK, "16384");
        engines = new ProgressEngine[n];
        collectives = new Collectives[n];
        nonBlocking = new NonBlockingCollectives[n];
        for (int r = 0; r < n; r++) {
            engines[r] = new ProgressEngine(r, settings);
            EngineBackend backend = new EngineBackend(engines[r], r, n);
            collectives[r] = new Collectives(backend, tuning, nodes);
            nonBlocking[r] = new NonBlockingCollectives(backend, engines[r]);
        }
        for (int r = 0; r < n; r++) {
            int from = r;
            engines[r].setRouter((peer, header, payload) -> {
                ByteBuffer frame = ByteBuffer.allocate(header.remaining() + payload.remaining())
                        .order(ByteOrder.LITTLE_ENDIAN);
                frame.put(header.duplicate()).put(payload.duplicate()).flip();
                if (nodes != null && nodes.nodeOf(from) != nodes.nodeOf(peer)) {
                    crossNodeFrames.incrementAndGet();
                }
                engines[peer].onFrame(from, frame, () -> { });
            });
        }
    }

    /** The non-blocking collectives of {@code rank}, over its engine. */
    NonBlockingCollectives nonBlocking(int rank) {
        return nonBlocking[rank];
    }

    /** The progress engine of {@code rank}. */
    ProgressEngine engine(int rank) {
        return engines[rank];
    }

    /** Frames sent so far from a rank to a rank of another node (0 without a node map). */
    long crossNodeFrames() {
        return crossNodeFrames.get();
    }

    /** Runs {@code body} on every rank and rethrows the first failure; a rank stuck for 60 s fails the job. */
    void run(RankBody body) {
        int n = engines.length;
        int[] world = new int[n];
        for (int r = 0; r < n; r++) {
            world[r] = r;
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[n];
        for (int r = 0; r < n; r++) {
            CommSpec spec = new CommSpec(0, 1, world, r);
            Collectives coll = collectives[r];
            threads[r] = new Thread(() -> {
                try {
                    body.run(coll, spec);
                } catch (Throwable t) {
                    if (failure.compareAndSet(null, t)) {
                        for (ProgressEngine e : engines) {
                            e.fail("another rank failed: " + t);
                        }
                    }
                }
            }, "rank-" + r);
            threads[r].start();
        }
        try {
            for (Thread t : threads) {
                t.join(60_000);
                if (t.isAlive()) {
                    for (ProgressEngine e : engines) {
                        e.fail("test timed out");
                    }
                    t.join(5_000);
                    throw new AssertionError(t.getName() + " did not finish within 60 s");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        Throwable t = failure.get();
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error err) {
            throw err;
        }
        if (t != null) {
            throw new AssertionError(t);
        }
    }

    /** Point-to-point only: the collectives under test run over it. */
    private record EngineBackend(ProgressEngine engine, int rank, int size) implements MpiBackend {
        @Override
        public void init(String[] args) {
        }

        @Override
        public String processorName() {
            return "thread";
        }

        @Override
        public void finish() {
        }

        @Override
        public void abort(int errorCode) {
            throw new UnsupportedOperationException("abort");
        }

        @Override
        public Operation send(ByteBuffer data, int dest, int tag, int context, SendMode mode) {
            return engine.send(data, dest, tag, context, mode);
        }

        @Override
        public Operation receive(ByteBuffer room, int source, int tag, int context) {
            return engine.receive(room, source, tag, context);
        }

        @Override
        public Operation receive(ByteBuffer room, Arrival arrival, int source, int tag, int context) {
            return engine.receive(room, arrival, source, tag, context);
        }

        @Override
        public Operation receiveAndWait(ByteBuffer room, int source, int tag, int context, PendingCall pending) {
            return engine.receiveAndWait(room, source, tag, context, pending);
        }

        @Override
        public void release(Operation completed) {
            engine.release(completed);
        }

        @Override
        public Envelope probe(int source, int tag, int context) {
            return engine.probe(source, tag, context);
        }

        @Override
        public void await(BooleanSupplier done) {
            engine.await(done);
        }

        @Override
        public void poll() {
            engine.poll();
        }

        @Override
        public void revokeCollectives(CommSpec comm, RuntimeException cause) {
            if (CollectiveErrors.revokes(cause)) {
                engine.revoke(comm.collectiveContext(), comm.worldRanks(), CollectiveErrors.reason(cause));
            }
        }

        @Override
        public void barrier(CommSpec comm) {
            DisseminationBarrier.run(this, comm);
        }
    }
}
