package dev.mpj.runtime.bootstrap;

/** Where the exchange makes a peer reachable as soon as its card is known (the transport, in MPI.Init). */
public interface PeerDirectory {
    /** {@code card} is the peer's whole encoded {@link BusinessCard}. */
    void addPeer(int rank, byte[] card);
}
