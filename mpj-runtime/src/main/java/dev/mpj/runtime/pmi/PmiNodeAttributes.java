package dev.mpj.runtime.pmi;

/**
 * The node-scoped store of PMI-2 ({@code info-putnodeattr}/{@code info-getnodeattr}, PMI.md §3.3): one store
 * per node, shared by the ranks of that node only, and a put is visible at once, without a barrier. A waiting
 * get blocks in the process manager until a rank of the same node puts the key, so a node-local rendezvous
 * (the node leader publishing its shared-memory segment, the others attaching) costs no global barrier.
 * Offered by {@link PmiClient#nodeAttributes()} where the dialect has it (PMI-2 under Hydra, Slurm and mpjrun);
 * PMI-1 has no node scope, so callers fall back to the global KVS and a barrier. Keys and values follow the
 * same rules as {@link PmiClient#put}.
 */
public interface PmiNodeAttributes {
    /** Publishes {@code key} to the ranks of this node, effective at once. */
    void put(String key, String value);

    /** The value of {@code key} on this node, waiting until some rank of the node puts it. */
    String await(String key);

    /** The value of {@code key} on this node, or null when no rank of the node has put it yet. */
    String get(String key);
}
