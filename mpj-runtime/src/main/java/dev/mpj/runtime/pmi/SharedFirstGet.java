package dev.mpj.runtime.pmi;

import java.util.function.UnaryOperator;

/**
 * A PMI get answered from the node's shared KVS table when it holds the key, else by the process manager; timed and
 * counted either way, so the counts stay the exchanges' formulas. The time is the get's as its caller sees it,
 * from the client's entry (its argument checks included) to the value.
 */
final class SharedFirstGet {
    /** The warm-up's manager, never asked: the warm-up's key is always in a table that is not disabled. */
    private static final UnaryOperator<String> NO_SERVER = key -> null;

    private SharedFirstGet() {
    }

    /**
     * While the first fence is pending: warms the table ({@link SharedKvsTable#warm}) and runs this path once,
     * uncounted, so that the first get after the fence links no call on its way.
     */
    static void warm(SharedKvsTable shared) {
        if (shared != null) {
            shared.warm();
            get(System.nanoTime(), shared, new PmiCounters(), SharedKvsTable.WARM_KEY, NO_SERVER);
        }
    }

    /**
     * @param startNanos when the client's get began
     * @param shared     the mapped table, or null when the manager offers none
     * @param server     asks the manager for a key the table lacks; null when not found
     */
    static String get(long startNanos, SharedKvsTable shared, PmiCounters counters, String key,
                      UnaryOperator<String> server) {
        String value = shared == null ? null : shared.get(key);
        if (value == null) {
            value = server.apply(key);
        }
        counters.countGet(System.nanoTime() - startNanos);
        return value;
    }
}
