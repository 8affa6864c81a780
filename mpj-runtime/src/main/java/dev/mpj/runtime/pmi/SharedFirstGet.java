package dev.mpj.runtime.pmi;

import java.util.function.UnaryOperator;

/**
 * A client's PMI gets, answered from the node's shared KVS table when it holds the key, else by the process
 * manager; timed and counted either way, so the counts stay the exchanges' formulas. The time is the get's as its
 * caller sees it, from the client's entry (its argument checks included) to the value.
 *
 * <p>A rank makes only a few gets, so each is a cold one: made when the client maps the table, this path has
 * mapped the table's first pages and run once (its classes initialised, its calls linked), and while the first
 * fence is pending, when the exchange will make more than one get after it ({@link PmiClient#prepareGets()}), it
 * runs {@link #WARM_ROUNDS} more times, uncounted, so that those gets find it compiled: too few gets for the JIT
 * to reach on its own.
 */
final class SharedFirstGet {
    /** The warm-up's manager, never asked: the warm-up's key is always in a table that is not disabled. */
    private static final UnaryOperator<String> NO_SERVER = new NoServer();
    /** Lookups while the first fence is pending: past HotSpot's first compile threshold (200 calls of a method). */
    static final int WARM_ROUNDS = 512;

    private final SharedKvsTable shared;
    private final PmiCounters counters;
    private final UnaryOperator<String> server;
    private boolean compiled;

    /**
     * @param shared   the mapped table, or null when the manager offers none
     * @param counters where the gets are counted and timed
     * @param server   asks the manager for a key the table lacks; null when not found
     */
    SharedFirstGet(SharedKvsTable shared, PmiCounters counters, UnaryOperator<String> server) {
        this.shared = shared;
        this.counters = counters;
        this.server = server;
        if (shared != null && shared.warm()) {
            lookup(System.nanoTime(), shared, new PmiCounters(), SharedKvsTable.WARM_KEY, NO_SERVER);
        }
    }

    /** While a fence is pending, before many gets: the first time, runs the lookup {@link #WARM_ROUNDS} times, uncounted. */
    void warm() {
        if (shared != null && !compiled) {
            compiled = true;
            PmiCounters uncounted = new PmiCounters();
            for (int i = 0; i < WARM_ROUNDS; i++) {
                lookup(System.nanoTime(), shared, uncounted, SharedKvsTable.WARM_KEY, NO_SERVER);
            }
        }
    }

    /** The value of {@code key}, counted as a get that began at {@code startNanos}. */
    String get(long startNanos, String key) {
        return lookup(startNanos, shared, counters, key, server);
    }

    private static String lookup(long startNanos, SharedKvsTable shared, PmiCounters counters, String key,
                                 UnaryOperator<String> server) {
        String value = shared == null ? null : shared.get(key);
        if (value == null) {
            value = server.apply(key);
        }
        counters.countGet(System.nanoTime() - startNanos);
        return value;
    }

    /** A class rather than a lambda: made in every rank's {@code MPI.Init}, where a lambda's linkage is cold work. */
    private static final class NoServer implements UnaryOperator<String> {
        @Override
        public String apply(String key) {
            return null;
        }
    }
}
