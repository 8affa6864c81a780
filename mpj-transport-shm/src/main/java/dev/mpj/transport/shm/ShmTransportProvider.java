package dev.mpj.transport.shm;

import dev.mpj.runtime.spi.Transport;
import dev.mpj.runtime.spi.TransportProvider;

/** Makes the shared-memory transport available to {@link java.util.ServiceLoader} under the name {@code shm}. */
public final class ShmTransportProvider implements TransportProvider {
    @Override
    public String name() {
        return ShmTransport.NAME;
    }

    @Override
    public Transport create() {
        return new ShmTransport();
    }
}
