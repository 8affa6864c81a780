package dev.mpj.runtime.spi;

import dev.mpj.runtime.Settings;

/** What the runtime gives a transport when it starts. */
public interface TransportContext {
    int rank();

    int size();

    /** Where decoded inbound frames go. */
    FrameSink sink();

    Settings settings();
}
