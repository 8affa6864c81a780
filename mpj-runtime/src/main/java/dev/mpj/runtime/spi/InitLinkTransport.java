package dev.mpj.runtime.spi;

/**
 * A transport that links the node roots for the {@code roots} allgather with sockets of its own, apart from its
 * message path: in a cold JVM the first connection through an event-loop framework (pipelines, allocators,
 * handshake handlers, all run for the first time) costs tens of milliseconds of CPU, a few plain sockets
 * almost none, and the allgather is on every rank's critical path. The transport opens the init-link listener
 * at start when {@link dev.mpj.runtime.spi.TransportContext#initLinks()} asks for it and names it in its address.
 */
public interface InitLinkTransport {
    /**
     * The messenger over this rank's init links, which it owns until {@link InitMessenger#close()}; null when
     * no init-link listener was opened. Peers are reached at the addresses given to the transport's
     * {@code addPeer}.
     */
    InitMessenger initLinks();
}
