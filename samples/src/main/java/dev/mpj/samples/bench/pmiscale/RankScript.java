package dev.mpj.samples.bench.pmiscale;

import dev.mpj.runtime.bootstrap.BusinessCard;
import dev.mpj.runtime.bootstrap.ExchangeContext;
import dev.mpj.runtime.bootstrap.RootsAllgatherExchange;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.pmi.PmiKvs;
import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.Pmi2Message;
import dev.mpj.runtime.pmi.wire.PmiAllgather;
import dev.mpj.runtime.pmi.wire.PmiSecret;

import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * What one simulated rank sends to the PMI server, in three parts the simulation runs in lock-step across the job:
 * the start (secret, port handshake, init), the address exchange, and the finalize. The exchange follows the
 * runtime's strategies request for request ({@code bootstrap/*Exchange}): the same keys, the same shares of the
 * gets ({@link ExchangeContext#shareStart}), values the length of a TCP business card. Only the PMI traffic is
 * simulated: node barriers in shared memory and the node roots' allgather over TCP are not. Steps are made as
 * they are needed, so a rank's P gets never sit in memory at once.
 */
final class RankScript {
    /** The exchanges the simulator knows; {@code allgather} is {@code simple} over mpjrun's allgather. */
    static final List<String> EXCHANGES = List.of("simple", "allgather", "shm", "roots", "ring");
    /** The bytes of a TCP card's address (length, IPv4, port, credential, init-link port). */
    private static final int ADDRESS_BYTES = 25;

    private final ArrayDeque<Step> start = new ArrayDeque<>();
    private final ArrayDeque<Object> exchange = new ArrayDeque<>();
    private final Step finish;
    private Gets gets;
    private int cursor;

    /** Gets of {@code peer(i)} for i in [from, to). */
    private record Gets(int from, int to, IntUnaryOperator peer) {
    }

    private RankScript(Step finish) {
        this.finish = finish;
    }

    /** The card of {@code rank}, hex-encoded as the runtime publishes it. */
    static String card(NodeMap map, int rank) {
        byte[] address = new byte[ADDRESS_BYTES];
        for (int i = 0; i < address.length; i++) {
            address[i] = (byte) (rank >>> (8 * (i % 4)));
        }
        return PmiKvs.hex(new BusinessCard(map.nodeOf(rank), map.isRoot(rank) ? BusinessCard.FLAG_NODE_ROOT : 0,
                address).encode());
    }

    /** The job's shared facts: its node map, KVS name, secret, the cards, and the allgather's value lines. */
    record Job(NodeMap map, String kvs, String secret, String[] cards, List<String> allgatherChunks) {
        static Job of(NodeMap map, String kvs, String secret) {
            String[] cards = new String[map.size()];
            for (int r = 0; r < cards.length; r++) {
                cards[r] = card(map, r);
            }
            return new Job(map, kvs, secret, cards, PmiAllgather.chunks(List.of(cards), false));
        }
    }

    static RankScript of(String exchange, Job job, int rank) {
        boolean pmi2 = exchange.equals("ring");
        RankScript s = new RankScript(pmi2
                ? Step.frame(Step.Op.FINALIZE, Pmi2Message.of("finalize"), "finalize-response", Map.of())
                : Step.line(Step.Op.FINALIZE, Pmi1Message.of("finalize"), "finalize_ack", null));
        NodeMap map = job.map();
        int node = map.nodeOf(rank);
        int local = map.localRank(rank);
        int localSize = map.localSize(node);
        int size = map.size();
        s.start.add(start(job, rank, pmi2));
        if (pmi2) {
            s.start.add(Step.frame(Step.Op.START, Pmi2Message.of("fullinit", "pmirank", Integer.toString(rank),
                    "threaded", "FALSE"), "fullinit-response", Map.of("rank", Integer.toString(rank))));
        }
        switch (exchange) {
            case "simple" -> {
                s.put(job, rank);
                s.fence();
                s.exchange.add(new Gets(0, size, p -> p));
            }
            case "allgather" -> s.exchange.add(Step.allgather(job.cards()[rank], job.allgatherChunks(), size));
            case "shm" -> {
                s.put(job, rank);
                s.fence();
                s.exchange.add(new Gets(ExchangeContext.shareStart(local, localSize, size),
                        ExchangeContext.shareEnd(local, localSize, size), p -> p));
            }
            case "roots" -> {
                if (map.isRoot(rank)) {
                    s.put(job, rank);
                }
                s.fence();
                int nodes = map.nodeCount();
                s.exchange.add(new Gets(ExchangeContext.shareStart(local, localSize, nodes - 1),
                        ExchangeContext.shareEnd(local, localSize, nodes - 1),
                        i -> map.nodeRoot(RootsAllgatherExchange.fetchedNode(i, node))));
            }
            case "ring" -> {
                if (map.nodeCount() > 1) {
                    s.ring(job, rank);
                }
            }
            default -> throw new IllegalArgumentException("unknown exchange " + exchange + " (" + EXCHANGES + ")");
        }
        return s;
    }

    /** The secret, the port handshake and the init sequence, sent at once as mpjrun's ranks do. */
    private static Step start(Job job, int rank, boolean pmi2) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(PmiSecret.message(job.secret()).encode());
        out.writeBytes(Pmi1Message.of("initack", "pmiid", Integer.toString(rank)).encode());
        if (pmi2) {
            out.writeBytes(Pmi1Message.of("init", "pmi_version", "2", "pmi_subversion", "0").encode());
            return Step.lines(Step.Op.START, out.toByteArray(), 5); // initack, 3 sets, response_to_init
        }
        out.writeBytes(Pmi1Message.of("init", "pmi_version", "1", "pmi_subversion", "1").encode());
        out.writeBytes(Pmi1Message.of("get_maxes").encode());
        out.writeBytes(Pmi1Message.of("get_my_kvsname").encode());
        return Step.lines(Step.Op.START, out.toByteArray(), 7);
    }

    private void put(Job job, int rank) {
        exchange.add(Step.line(Step.Op.PUT, Pmi1Message.of("put", "kvsname", job.kvs(), "key",
                ExchangeContext.CARD_KEY + rank, "value", job.cards()[rank]), "put_result", null));
    }

    private void fence() {
        exchange.add(Step.line(Step.Op.FENCE, Pmi1Message.of("barrier_in"), "barrier_out", null));
    }

    /** PMI-2: the ring with the node root's card, as the ring exchange enters it. */
    private void ring(Job job, int rank) {
        NodeMap map = job.map();
        int size = map.size();
        String own = job.cards()[map.nodeRoot(map.nodeOf(rank))];
        String left = job.cards()[map.nodeRoot(map.nodeOf((rank + size - 1) % size))];
        String right = job.cards()[map.nodeRoot(map.nodeOf((rank + 1) % size))];
        exchange.add(Step.frame(Step.Op.RING, Pmi2Message.of("ring", "ring-count", "1", "ring-left", own,
                "ring-right", own), "ring-response", Map.of("ring-count", Integer.toString(rank),
                "ring-left", left, "ring-right", right)));
    }

    /** The next step of the start, or null when it is done. */
    Step nextStartStep() {
        return start.poll();
    }

    Step finish() {
        return finish;
    }

    /** The next step of the exchange, or null when it is done. */
    Step nextExchangeStep(Job job) {
        while (true) {
            if (gets != null) {
                if (cursor < gets.to()) {
                    int peer = gets.peer().applyAsInt(cursor++);
                    return Step.get(job.kvs(), ExchangeContext.CARD_KEY + peer, job.cards()[peer]);
                }
                gets = null;
            }
            Object next = exchange.poll();
            if (next == null) {
                return null;
            }
            if (next instanceof Gets g) {
                gets = g;
                cursor = g.from();
            } else {
                return (Step) next;
            }
        }
    }
}
