package dev.mpj.transport.tcp;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NettyDefaultsTest {
    @Test
    void setsWhatIsUnsetAndKeepsWhatTheProgramSet() {
        Map<String, String> before = new HashMap<>();
        for (String key : NettyDefaults.PROPERTIES.keySet()) {
            before.put(key, System.getProperty(key));
        }
        try {
            System.clearProperty("io.netty.osClassifiers");
            System.setProperty("io.netty.jfr.enabled", "true");

            NettyDefaults.apply();

            assertEquals("", System.getProperty("io.netty.osClassifiers"));
            assertEquals("true", System.getProperty("io.netty.jfr.enabled"));
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
