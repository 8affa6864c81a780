package dev.mpj.runtime.pmi;

import java.util.function.UnaryOperator;

/**
 * A PMI get answered from the node's shared KVS table when it holds the key, else by the process manager; timed and
 * counted either way, so the counts stay the exchanges' formulas.
 */
final class SharedFirstGet {
    private SharedFirstGet() {
    }

    /**
     * @param shared the mapped table, or null when the manager offers none
     * @param server asks the manager for a key the table lacks; null when not found
     */
    static String get(SharedKvsTable shared, PmiCounters counters, String key, UnaryOperator<String> server) {
        long start = System.nanoTime();
        String value = shared == null ? null : shared.get(key);
        if (value == null) {
            value = server.apply(key);
        }
        counters.countGet(System.nanoTime() - start);
        return value;
    }
}
