package dev.mpj.runtime.spi;

import java.util.List;

/**
 * Names the JDK's own selector provider before the first NIO channel or selector of a process opens. Unnamed,
 * {@link java.nio.channels.spi.SelectorProvider#provider()} first looks for a provider service on the class path,
 * which opens every jar of it: work the launcher and a rank otherwise do not need before their first message.
 */
public final class PlatformSelectorProvider {
    /** The system property {@link java.nio.channels.spi.SelectorProvider#provider()} reads first. */
    public static final String PROPERTY = "java.nio.channels.spi.SelectorProvider";

    /** The JDK's default providers of Linux, macOS and Windows: each exists only in its platform's JDK. */
    static final List<String> PLATFORM_PROVIDERS = List.of("sun.nio.ch.EPollSelectorProvider",
            "sun.nio.ch.KQueueSelectorProvider", "sun.nio.ch.WEPollSelectorProvider");

    private PlatformSelectorProvider() {
    }

    /**
     * Sets {@value #PROPERTY} to the platform's default provider unless the user set it; without effect once a
     * provider has been chosen.
     */
    public static void name() {
        if (System.getProperty(PROPERTY) != null) {
            return;
        }
        for (String provider : PLATFORM_PROVIDERS) {
            try {
                Class.forName(provider, false, null);
                System.setProperty(PROPERTY, provider);
                return;
            } catch (ClassNotFoundException e) {
                // another platform's
            }
        }
    }
}
