package dev.mpj.runtime.init;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.engine.WaitIdling;
import dev.mpj.runtime.spi.FrameSink;
import dev.mpj.runtime.spi.Idling;
import dev.mpj.runtime.spi.NodeRoom;
import dev.mpj.runtime.spi.TcpOptions;
import dev.mpj.runtime.spi.TransportContext;

/** What a transport gets when {@link InitSequence} starts it; {@code tcpHost} as {@link TcpHostChoice} chose it. */
record StartContext(int rank, int size, ProgressEngine engine, Settings settings, String tcpHost, NodeRoom nodeRoom,
                    boolean initLinks) implements TransportContext {
    @Override
    public FrameSink sink() {
        return engine;
    }

    @Override
    public TcpOptions tcp() {
        return TcpOptions.from(settings, tcpHost);
    }

    @Override
    public Idling idling() {
        return new WaitIdling(engine.waitPolicy());
    }
}
