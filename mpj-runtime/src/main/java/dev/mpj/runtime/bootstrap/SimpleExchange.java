package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.config.AddressExchangeMode;
import dev.mpj.runtime.node.NodeSegment;

/**
 * Every rank puts its card, one fence, every rank gets all P cards (its own too): P puts and P² gets in the
 * job. The node root writes the cards it got into the node table; a node barrier ends it.
 */
public final class SimpleExchange implements AddressExchange {
    public static final String NAME = AddressExchangeMode.SIMPLE.settingValue();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(ExchangeContext c) {
        c.publishCard();
        c.startFence();
    }

    @Override
    public void finish(ExchangeContext c) {
        c.fence();
        int size = c.nodeMap().size();
        boolean root = c.nodeMap().isRoot(c.rank());
        for (int peer = 0; peer < size; peer++) {
            byte[] card = c.fetchCard(peer);
            if (root) {
                c.store(peer, card);
            }
        }
        NodeSegment segment = c.segment();
        segment.barrier();
    }
}
