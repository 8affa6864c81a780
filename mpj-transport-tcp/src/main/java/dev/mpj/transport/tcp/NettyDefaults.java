package dev.mpj.transport.tcp;

import java.util.Map;

/**
 * Netty system properties the transport sets before Netty's first class initialises, each only where the program
 * has not set it (under its name or an older one Netty still reads): two of Netty's start-up probes that cost every
 * rank of a TCP job time and give this transport nothing, which together keep Netty's start short in a cold JVM
 * (docs/decisions/0010-cold-jvm-costs-off-the-init-path.md), and its leak detector.
 * <ul>
 *   <li>{@code io.netty.jfr.enabled=false}: no Flight Recorder events for Netty's allocator, whose classes no
 *   class-data archive can hold (the JVM leaves JFR event classes out), so each rank loaded them from the jar and
 *   started part of JFR to register them.</li>
 *   <li>{@code io.netty.osClassifiers=} (empty): no reading of {@code /etc/os-release}, which Netty parses to pick
 *   distribution-specific builds of its native transports; this transport uses NIO.</li>
 *   <li>{@code io.netty.leakDetection.level=disabled}: no leak tracking of the transport's buffers
 *   (docs/decisions/0079-first-tcp-calls-link-nothing-and-track-no-buffer.md). At Netty's default one buffer in
 *   128 is wrapped and records its stack, in classes the class-data archive does not hold, which every rank of a
 *   TCP job then loaded from Netty's jar in the middle of its calls. A program debugging a leak sets the level
 *   and keeps it.</li>
 * </ul>
 */
final class NettyDefaults {
    static final String LEAK_DETECTION_LEVEL = "io.netty.leakDetection.level";
    static final Map<String, String> PROPERTIES = Map.of(
            "io.netty.jfr.enabled", "false",
            "io.netty.osClassifiers", "",
            LEAK_DETECTION_LEVEL, "disabled");
    /** A property's older name, which Netty reads when the current one is unset. */
    static final Map<String, String> OLDER_NAMES = Map.of(LEAK_DETECTION_LEVEL, "io.netty.leakDetectionLevel");

    private NettyDefaults() {
    }

    static void apply() {
        for (Map.Entry<String, String> p : PROPERTIES.entrySet()) {
            String older = OLDER_NAMES.get(p.getKey());
            if (System.getProperty(p.getKey()) == null && (older == null || System.getProperty(older) == null)) {
                System.setProperty(p.getKey(), p.getValue());
            }
        }
    }
}
