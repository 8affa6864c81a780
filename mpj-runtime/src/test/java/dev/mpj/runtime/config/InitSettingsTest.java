package dev.mpj.runtime.config;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InitSettingsTest {
    @Test
    void theExchangeComesFromTheEnvironmentAndAPropertyWins() {
        assertEquals("auto", Settings.defaults().addressExchange().settingValue());
        assertEquals("shm", Settings.from(Map.of("MPJ_ADDRESS_EXCHANGE", "shm"), Map.of()).addressExchange().settingValue());
        assertEquals("roots", Settings.from(Map.of("MPJ_ADDRESS_EXCHANGE", "shm"),
                Map.of("mpj.addressExchange", "roots")).addressExchange().settingValue());
    }

    @Test
    void anUnknownExchangeIsRejectedNamingTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.from(Map.of("MPJ_ADDRESS_EXCHANGE", "fastest"), Map.of()));
        assertTrue(e.getMessage().contains("simple, shm, roots, ring or auto"), e.getMessage());
    }

    @Test
    void initTimingsAreOnWithMpjInitTimingsOrVerbose() {
        assertFalse(Settings.defaults().initTimings());
        assertTrue(Settings.from(Map.of("MPJ_INIT_TIMINGS", "1"), Map.of()).initTimings());
        assertTrue(Settings.from(Map.of(), Map.of("mpj.verbose", "true")).initTimings());
    }

    @Test
    void theKillHookMustNameAPhaseAndARank() {
        assertThrows(IllegalArgumentException.class,
                () -> Settings.from(Map.of("MPJ_TEST_KILL_AFTER_PHASE", "segment"), Map.of()));
        Settings.from(Map.of("MPJ_TEST_KILL_AFTER_PHASE", "segment@3"), Map.of());
    }
}
