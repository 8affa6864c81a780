package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.init.InitReport;
import dev.mpj.runtime.config.AddressExchangeMode;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.InProcessPmiJob;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.pmi.PmiClient;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * A whole job's address exchange in one JVM: one thread per rank, a shared in-process PMI server, node segments
 * as real files in a directory, and progress engines wired to each other in memory for the roots' allgather.
 * Runs the full init sequence of the exchange (agreement when asked, strategy) and keeps what each rank saw.
 */
final class InProcessExchangeJob {

    /** What one rank ended with. */
    record RankResult(byte[] table, long puts, long gets, long barriers, long rings, long agreementPuts,
                      long agreementGets, byte[][] cards) {
        String digest() {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(table));
            } catch (NoSuchAlgorithmException e) {
                throw new AssertionError(e);
            }
        }
    }

    private final NodeMap map;
    private final Path dir;
    private final IntFunction<byte[]> cardOf;
    private final Duration timeout;
    private int[] ringOrder;

    /**
     * @param cardOf  each rank's encoded card
     * @param timeout how long a node barrier waits for a rank that failed
     */
    InProcessExchangeJob(NodeMap map, Path dir, IntFunction<byte[]> cardOf, Duration timeout) {
        this.map = map;
        this.dir = dir;
        this.cardOf = cardOf;
        this.timeout = timeout;
        this.ringOrder = nodeMajorOrder(map);
    }

    /** The ranks node by node, as Slurm's PMIX_Ring visits them; the order this job's ring serves by default. */
    static int[] nodeMajorOrder(NodeMap map) {
        int[] order = new int[map.size()];
        int at = 0;
        for (int node = 0; node < map.nodeCount(); node++) {
            for (int rank : map.ranksOn(node)) {
                order[at++] = rank;
            }
        }
        return order;
    }

    /** The ring visits the ranks in {@code order}; null: the PMI clients offer no ring. */
    InProcessExchangeJob ringOrder(int[] order) {
        ringOrder = order;
        return this;
    }

    /** Runs {@code strategy} on every rank at once and returns what each rank's node table held. */
    List<RankResult> run(AddressExchangeMode strategy, boolean irregular) throws Exception {
        int size = map.size();
        InProcessPmiJob pmiJob = new InProcessPmiJob(size, "");
        if (ringOrder != null) {
            pmiJob.withRing(ringOrder);
        }
        ProgressEngine[] engines = new ProgressEngine[size];
        for (int r = 0; r < size; r++) {
            engines[r] = new ProgressEngine(r, Settings.defaults());
        }
        for (int r = 0; r < size; r++) {
            engines[r].setRouter(new MemoryRouter(r, engines));
        }
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try {
            List<Future<RankResult>> futures = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                int rank = r;
                PmiClient pmi = pmiJob.client(rank);
                futures.add(pool.submit(() -> runRank(strategy, irregular, pmi, engines[rank])));
            }
            List<RankResult> results = new ArrayList<>();
            StringBuilder failures = new StringBuilder();
            for (Future<RankResult> f : futures) {
                try {
                    results.add(f.get(60, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    failures.append("\nrank ").append(futures.indexOf(f)).append(": ")
                            .append(e.getCause());
                }
            }
            if (failures.length() > 0) {
                throw new AssertionError("ranks failed:" + failures);
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private RankResult runRank(AddressExchangeMode strategy, boolean irregular, PmiClient pmi, ProgressEngine engine) {
        int rank = pmi.rank();
        ExchangeContext c = new ExchangeContext(pmi, map, cardOf.apply(rank), capacity -> attach(rank, capacity),
                new EngineMessenger(engine), (peer, card) -> { }, new InitReport());
        long agreementPuts = 0;
        long agreementGets = 0;
        long agreementBarriers = 0;
        if (irregular) {
            c.attachForIrregularCards();
            CardLengthAgreement.run(c);
            agreementPuts = pmi.counters().puts();
            agreementGets = pmi.counters().gets();
            agreementBarriers = pmi.counters().barriers();
        }
        AddressExchanges.choose(strategy, map.size(), map.nodeCount()).run(c);
        NodeSegment segment = c.segment();
        ByteBuffer view = segment.cardTable();
        byte[] table = new byte[view.remaining()];
        view.get(table);
        byte[][] cards = new byte[map.size()][];
        for (int r = 0; r < map.size(); r++) {
            cards[r] = segment.card(r);
        }
        segment.barrier(); // as at Finalize: nobody unmaps while a local rank still reads
        segment.close();
        return new RankResult(table, pmi.counters().puts() - agreementPuts, pmi.counters().gets() - agreementGets,
                pmi.counters().barriers() - agreementBarriers, pmi.counters().rings(), agreementPuts, agreementGets,
                cards);
    }

    private NodeSegment attach(int rank, int capacity) {
        int node = map.nodeOf(rank);
        Path file = dir.resolve("mpj-test-n" + node);
        return map.isRoot(rank)
                ? NodeSegment.create(file, node, map.localSize(node), map.size(), capacity, 0, timeout)
                : NodeSegment.open(file, node, map.localSize(node), map.size(), timeout);
    }

    /** Copies each frame into the peer engine's inbox, as a transport would. */
    private record MemoryRouter(int from, ProgressEngine[] engines) implements ProgressEngine.FrameRouter {
        @Override
        public void send(int peer, ByteBuffer header, ByteBuffer payload) {
            ByteBuffer f = ByteBuffer.allocate(header.remaining() + payload.remaining()).order(ByteOrder.LITTLE_ENDIAN);
            f.put(header.duplicate()).put(payload.duplicate()).flip();
            engines[peer].onFrame(from, f, () -> { });
        }
    }
}
