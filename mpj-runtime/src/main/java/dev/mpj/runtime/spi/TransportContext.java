package dev.mpj.runtime.spi;


/** What the runtime gives a transport when it starts: exactly what the transports use. */
public interface TransportContext {
    int rank();

    int size();

    /** Where decoded inbound frames go. */
    FrameSink sink();

    /** The TCP transport's settings. */
    TcpOptions tcp();

    /** How the transport's own waits idle: as the engine's, so both wait alike. */
    Idling idling();

    /** This node's shared-memory room and the ranks that share it, or null when there is none. */
    default NodeRoom nodeRoom() {
        return null;
    }

    /**
     * Whether this rank is a node root that will run the {@code roots} allgather, so a transport that implements
     * {@link InitLinkTransport} opens its init-link listener.
     */
    default boolean initLinks() {
        return false;
    }
}
