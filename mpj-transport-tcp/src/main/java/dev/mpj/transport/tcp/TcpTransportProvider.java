package dev.mpj.transport.tcp;

import dev.mpj.runtime.spi.Transport;
import dev.mpj.runtime.spi.TransportProvider;

/** Makes the TCP transport available to {@link java.util.ServiceLoader} under the name {@code tcp}. */
public final class TcpTransportProvider implements TransportProvider {
    @Override
    public String name() {
        return TcpTransport.NAME;
    }

    @Override
    public Transport create() {
        return new TcpTransport();
    }
}
