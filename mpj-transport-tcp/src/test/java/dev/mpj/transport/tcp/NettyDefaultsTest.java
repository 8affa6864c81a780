package dev.mpj.transport.tcp;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class NettyDefaultsTest {
    @Test
    void setsWhatIsUnsetAndKeepsWhatTheProgramSet() {
        withPropertiesRestored(() -> {
            System.clearProperty("io.netty.osClassifiers");
            System.clearProperty(NettyDefaults.LEAK_DETECTION_LEVEL);
            System.clearProperty("io.netty.leakDetectionLevel");
            System.setProperty("io.netty.jfr.enabled", "true");

            NettyDefaults.apply();

            assertEquals("", System.getProperty("io.netty.osClassifiers"));
            assertEquals("true", System.getProperty("io.netty.jfr.enabled"));
            assertEquals("disabled", System.getProperty(NettyDefaults.LEAK_DETECTION_LEVEL));
        });
    }

    @Test
    void keepsALeakDetectionLevelSetUnderNettysOlderName() {
        withPropertiesRestored(() -> {
            System.clearProperty(NettyDefaults.LEAK_DETECTION_LEVEL);
            System.setProperty("io.netty.leakDetectionLevel", "paranoid");

            NettyDefaults.apply();

            // Netty reads the older name only while the current one is unset
            assertNull(System.getProperty(NettyDefaults.LEAK_DETECTION_LEVEL));
            assertEquals("paranoid", System.getProperty("io.netty.leakDetectionLevel"));
        });
    }

    private static void withPropertiesRestored(Runnable body) {
        Set<String> keys = new HashSet<>(NettyDefaults.PROPERTIES.keySet());
        keys.addAll(NettyDefaults.OLDER_NAMES.values());
        Map<String, String> before = new HashMap<>();
        for (String key : keys) {
            before.put(key, System.getProperty(key));
        }
        try {
            body.run();
        } finally {
            before.forEach((key, value) -> {
                if (value == null) {
                    System.clearProperty(key);
                } else {
                    System.setProperty(key, value);
                }
            });
        }
    }
}
