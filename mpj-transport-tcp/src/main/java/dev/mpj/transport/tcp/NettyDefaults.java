package dev.mpj.transport.tcp;

import java.util.Map;

/**
 * Netty system properties the transport sets before Netty's first class initialises, each only where the program
 * has not set it: two of Netty's start-up probes that cost every rank of a TCP job time and give this transport
 * nothing. Together they keep Netty's start short in a cold JVM
 * (docs/decisions/0010-cold-jvm-costs-off-the-init-path.md).
 * <ul>
 *   <li>{@code io.netty.jfr.enabled=false}: no Flight Recorder events for Netty's allocator, whose classes no
 *   class-data archive can hold (the JVM leaves JFR event classes out), so each rank loaded them from the jar and
 *   started part of JFR to register them.</li>
 *   <li>{@code io.netty.osClassifiers=} (empty): no reading of {@code /etc/os-release}, which Netty parses to pick
 *   distribution-specific builds of its native transports; this transport uses NIO.</li>
 * </ul>
 */
final class NettyDefaults {
    static final Map<String, String> PROPERTIES = Map.of(
            "io.netty.jfr.enabled", "false",
            "io.netty.osClassifiers", "");

    private NettyDefaults() {
    }

    static void apply() {
        for (Map.Entry<String, String> p : PROPERTIES.entrySet()) {
            if (System.getProperty(p.getKey()) == null) {
                System.setProperty(p.getKey(), p.getValue());
            }
        }
    }
}
