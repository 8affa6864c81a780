package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.config.AddressExchangeMode;
import dev.mpj.runtime.node.NodeMap;

/**
 * Every rank puts its card, one fence, then the C ranks of a node share the P gets: each gets about P/C cards
 * straight into the node table, and a node barrier ends it. P puts and N·P gets in the job.
 */
public final class ShmExchange implements AddressExchange {
    public static final String NAME = AddressExchangeMode.SHM.settingValue();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void start(ExchangeContext c) {
        c.publishCard();
        c.startFence(c.localShare(c.nodeMap().size()));
    }

    @Override
    public void finish(ExchangeContext c) {
        c.fence();
        NodeMap map = c.nodeMap();
        int local = map.localRank(c.rank());
        int localSize = map.localSize(map.nodeOf(c.rank()));
        int end = ExchangeContext.shareEnd(local, localSize, map.size());
        for (int peer = ExchangeContext.shareStart(local, localSize, map.size()); peer < end; peer++) {
            c.store(peer, c.fetchCard(peer));
        }
        c.segment().barrier();
    }
}
