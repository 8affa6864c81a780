package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.config.AddressExchangeMode;
import dev.mpj.runtime.node.NodeSegment;

/**
 * Every rank puts its card, one fence, every rank gets all P cards (its own too): P puts and P² gets in the
 * job. Where the process manager offers an allgather that carries the cards (mpjrun), every rank instead sends
 * its card once and receives all P in one request: P allgathers, no puts, gets or fence. The node root writes the
 * cards it got into the node table; a node barrier ends it.
 */
public final class SimpleExchange implements AddressExchange {
    public static final String NAME = AddressExchangeMode.SIMPLE.settingValue();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(ExchangeContext c) {
        if (!c.cardsFitAllgather()) {
            c.publishCard();
            c.startFence(c.nodeMap().size());
        }
    }

    @Override
    public void finish(ExchangeContext c) {
        boolean root = c.nodeMap().isRoot(c.rank());
        if (c.cardsFitAllgather()) {
            byte[][] cards = c.allgatherCards();
            if (root) {
                for (int peer = 0; peer < cards.length; peer++) {
                    c.store(peer, cards[peer]);
                }
            }
        } else {
            c.fence();
            int size = c.nodeMap().size();
            for (int peer = 0; peer < size; peer++) {
                byte[] card = c.fetchCard(peer);
                if (root) {
                    c.store(peer, card);
                }
            }
        }
        NodeSegment segment = c.segment();
        segment.barrier();
    }
}
