package dev.mpj.runtime.spi;

import dev.mpj.runtime.Settings;
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
}
