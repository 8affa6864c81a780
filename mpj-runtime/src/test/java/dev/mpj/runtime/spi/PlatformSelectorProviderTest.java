package dev.mpj.runtime.spi;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.channels.spi.SelectorProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PlatformSelectorProviderTest {
    private String before;

    @BeforeEach
    void saveProperty() {
        before = System.getProperty(PlatformSelectorProvider.PROPERTY);
    }

    @AfterEach
    void restoreProperty() {
        if (before == null) {
            System.clearProperty(PlatformSelectorProvider.PROPERTY);
        } else {
            System.setProperty(PlatformSelectorProvider.PROPERTY, before);
        }
    }

    @Test
    void namesTheProviderTheJdkUsesByDefault() {
        System.clearProperty(PlatformSelectorProvider.PROPERTY);
        PlatformSelectorProvider.name();
        // no provider service is on the test class path, so provider() is the JDK's own, named or not
        assertEquals(SelectorProvider.provider().getClass().getName(),
                System.getProperty(PlatformSelectorProvider.PROPERTY));
    }

    @Test
    void keepsAProviderTheUserNamed() {
        System.setProperty(PlatformSelectorProvider.PROPERTY, "org.example.MyProvider");
        PlatformSelectorProvider.name();
        assertEquals("org.example.MyProvider", System.getProperty(PlatformSelectorProvider.PROPERTY));
    }
}
