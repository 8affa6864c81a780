package dev.mpj.runtime.config;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TcpSettingsTest {
    @Test
    void theCallerDrivesTheSocketsUnlessThreadsAreAskedFor() {
        assertEquals("caller", Settings.defaults().tcpProgress().settingValue());
        assertEquals("threads", Settings.from(Map.of("MPJ_TCP_PROGRESS", "threads"), Map.of())
                .tcpProgress().settingValue());
    }

    @Test
    void anUnknownProgressModeIsRejectedNamingTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.from(Map.of("MPJ_TCP_PROGRESS", "spin"), Map.of()));
        assertTrue(e.getMessage().contains("mpj.tcp.progress must be caller or threads"), e.getMessage());
    }
}
