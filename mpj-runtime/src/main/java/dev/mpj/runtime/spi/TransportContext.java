package dev.mpj.runtime.spi;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.WaitPolicy;
import dev.mpj.runtime.engine.RankWaitPolicy;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;

/** What the runtime gives a transport when it starts. */
public interface TransportContext {
    int rank();

    int size();

    /** Where decoded inbound frames go. */
    FrameSink sink();

    Settings settings();

    /** Which ranks share a node, or null when unknown. */
    default NodeMap nodeMap() {
        return null;
    }

    /** This rank's node segment (with its transport room), or null when there is none. */
    default NodeSegment nodeSegment() {
        return null;
    }

    /**
     * Whether this rank is a node root that will run the {@code roots} allgather, so a transport that implements
     * {@link dev.mpj.runtime.bootstrap.InitLinkTransport} opens its init-link listener.
     */
    default boolean initLinks() {
        return false;
    }

    /**
     * How a polled transport idles while it waits: the engine's policy, so both wait alike and {@code auto} is
     * decided once; resolved here from the settings and node map when the runtime does not say.
     */
    default WaitPolicy waitPolicy() {
        return RankWaitPolicy.forRank(settings(), nodeMap(), rank());
    }
}
