package dev.mpj.runtime.engine;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.WaitPolicy;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WaitPolicyTest {
    @Test
    void aStandbyTakesTheIoOverSoonOnlyWhenTheRanksHaveCoresToSpare() {
        assertEquals(1_000_000, WaitPolicy.SPIN.standbyAfterNanos());
        assertTrue(WaitPolicy.YIELD.standbyAfterNanos() > 10 * WaitPolicy.SPIN.standbyAfterNanos(),
                "a rank that lost its core for a few ms is not away");
        assertEquals(WaitPolicy.YIELD.standbyAfterNanos(), WaitPolicy.AUTO.standbyAfterNanos());
    }

    @Test
    void theSettingIsReadInAnyCase() {
        assertEquals(WaitPolicy.SPIN, Settings.defaults().with(Setting.WAIT_POLICY, "Spin").waitPolicy());
        assertEquals(WaitPolicy.AUTO, Settings.defaults().waitPolicy());
    }

    @Test
    void anUnknownPolicyIsRefusedNamingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.defaults().with(Setting.WAIT_POLICY, "busy"));
        assertTrue(e.getMessage().contains("mpj.waitPolicy"), e.getMessage());
    }

    @Test
    void theEngineWaitsUnderThePolicyAskedFor() {
        ProgressEngine engine = new ProgressEngine(0, Settings.defaults().with(Setting.WAIT_POLICY, "yield"));
        assertEquals(WaitPolicy.YIELD, engine.waitPolicy());
    }
}
