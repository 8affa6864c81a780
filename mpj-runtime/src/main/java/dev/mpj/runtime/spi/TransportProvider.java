package dev.mpj.runtime.spi;

/** Found with {@link java.util.ServiceLoader}: one per transport module. */
public interface TransportProvider {
    /** The name the {@code mpj.transports} setting uses for it. */
    String name();

    Transport create();
}
