package dev.mpj.runtime.init;

import dev.mpj.runtime.Settings;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.engine.WaitPolicy;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.spi.FrameSink;
import dev.mpj.runtime.spi.TransportContext;

/** What a transport gets when {@link InitSequence} starts it. */
record StartContext(int rank, int size, ProgressEngine engine, Settings settings, NodeMap nodeMap,
                    NodeSegment nodeSegment, boolean initLinks) implements TransportContext {
    @Override
    public FrameSink sink() {
        return engine;
    }

    @Override
    public WaitPolicy waitPolicy() {
        return engine.waitPolicy();
    }
}
