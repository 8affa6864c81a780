package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.spi.ExchangeException;
import dev.mpj.runtime.node.NodeMap;

/**
 * One way for the ranks of a job to learn each other's business cards during {@code MPI.Init}. Whatever the
 * strategy, it ends with the same full card table (every rank's card in its slot, byte for byte the same) in
 * every node segment, and with every rank of the node past a node barrier that follows the last write.
 * Collective over the job: every rank runs the same strategy.
 */
public interface AddressExchange {
    /** The strategy's name, as {@code mpj.addressExchange} spells it. */
    String name();

    /**
     * The strategy's first PMI step, started without waiting (paper [2]'s {@code Ifence}): its puts and the entry
     * into its fence ({@link ExchangeContext#startFence()}). The caller may then do local work (no PMI request)
     * while the slower ranks arrive, and calls {@link #finish} after it. A strategy without a fence starts nothing.
     */
    default void start(ExchangeContext context) {
    }

    /**
     * Finishes what {@link #start} began and exchanges the cards. The context's own card is already encoded; the
     * node segment may not be attached yet (the strategy's PMI fence attaches it, {@link ExchangeContext#fence()}).
     *
     * @throws ExchangeException when a card is missing or does not fit the table, or a peer fails
     */
    void finish(ExchangeContext context);

    /** {@link #start} and {@link #finish} with nothing between them. */
    default void run(ExchangeContext context) {
        start(context);
        finish(context);
    }

    /**
     * Whether {@code rank} sends messages of its own to other ranks during {@link #finish} (through the
     * {@link ExchangeContext#messenger()}), so its transport should open init links for them.
     */
    default boolean messagesPeers(NodeMap map, int rank) {
        return false;
    }
}
