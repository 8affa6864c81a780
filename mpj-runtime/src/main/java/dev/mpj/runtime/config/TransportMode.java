package dev.mpj.runtime.config;

/** The {@code mpj.transports} setting: which transports carry point-to-point traffic. */
public enum TransportMode implements SettingValue {
    /** Shared memory within a node where it can be used, TCP for the rest. */
    AUTO,
    /** TCP to every peer, the node's own ranks too. */
    TCP,
    /** As AUTO, but a node whose shared memory cannot be used is an error rather than a fallback to TCP. */
    SHM
}
