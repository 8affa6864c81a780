package dev.mpj.runtime.config;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionModeTest {
    @Test
    void theEnvironmentVariableChoosesTheMode() {
        Settings s = Settings.from(Map.of("MPJ_CONNECTIONS", "ondemand"), Map.of());
        assertEquals(ConnectionMode.ONDEMAND, s.connections());
    }

    @Test
    void autoIsEagerForSmallJobsAndOnDemandAboveTheThreshold() {
        int t = ConnectionMode.AUTO_EAGER_MAX_RANKS;
        assertEquals(ConnectionMode.EAGER, ConnectionMode.AUTO.resolve(t));
        assertEquals(ConnectionMode.ONDEMAND, ConnectionMode.AUTO.resolve(t + 1));
        assertEquals(ConnectionMode.EAGER, ConnectionMode.EAGER.resolve(10_000));
    }

    @Test
    void anUnknownModeIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.defaults().with(Setting.CONNECTIONS, "lazy"));
        assertTrue(e.getMessage().contains("mpj.connections"), e.getMessage());
    }
}
