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
     * Exchanges the cards. The context's own card is already encoded; the node segment may not be attached yet
     * (the strategy's PMI fence attaches it, {@link ExchangeContext#fence()}).
     *
     * @throws ExchangeException when a card is missing or does not fit the table, or a peer fails
     */
    void run(ExchangeContext context);

    /**
     * Whether {@code rank} sends messages of its own to other ranks during {@link #run} (through the
     * {@link ExchangeContext#messenger()}), so its transport should open init links for them.
     */
    default boolean messagesPeers(NodeMap map, int rank) {
        return false;
    }
}
