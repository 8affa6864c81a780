package dev.mpj.runtime.engine;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.WaitPolicy;
import dev.mpj.runtime.node.NodeMap;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WaitPolicyTest {
    @Test
    void autoSpinsWhileTheRanksFitTheCoresOfAnIdleMachine() {
        assertEquals(WaitPolicy.SPIN, WaitPolicy.AUTO.resolve(2, 2, 0.3));
        assertEquals(WaitPolicy.SPIN, WaitPolicy.AUTO.resolve(1, 8, 6.5));
    }

    @Test
    void theLoadAverageIsTheMachinesOneMinuteFigure() throws Exception {
        String first = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0];
        double read = RankWaitPolicy.loadAverage();
        // the kernel may update it between the two reads, by little
        assertEquals(Double.parseDouble(first), read, 1.0);
        assertTrue(read >= 0);
    }

    @Test
    void aStandbyTakesTheIoOverSoonOnlyWhenTheRanksHaveCoresToSpare() {
        assertEquals(1_000_000, WaitPolicy.SPIN.standbyAfterNanos());
        assertTrue(WaitPolicy.YIELD.standbyAfterNanos() > 10 * WaitPolicy.SPIN.standbyAfterNanos(),
                "a rank that lost its core for a few ms is not away");
        assertEquals(WaitPolicy.YIELD.standbyAfterNanos(), WaitPolicy.AUTO.standbyAfterNanos());
    }

    @Test
    void autoSpinsWhenTheLoadIsUnknown() {
        assertEquals(WaitPolicy.SPIN, WaitPolicy.AUTO.resolve(2, 2, -1));
    }

    @Test
    void autoYieldsWhenTheRanksOutnumberTheCores() {
        assertEquals(WaitPolicy.YIELD, WaitPolicy.AUTO.resolve(8, 2, 0.0));
    }

    @Test
    void autoYieldsOnAMachineBusyWithOtherWork() {
        assertEquals(WaitPolicy.YIELD, WaitPolicy.AUTO.resolve(2, 2, 2.0));
    }

    @Test
    void anExplicitPolicyHoldsWhateverTheCountAndLoad() {
        assertEquals(WaitPolicy.SPIN, WaitPolicy.SPIN.resolve(64, 2, 100));
        assertEquals(WaitPolicy.YIELD, WaitPolicy.YIELD.resolve(1, 64, 0));
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
    void theRanksOfTheNodeShareItsCores() {
        NodeMap twoPerNode = NodeMap.blocks(8, 4);
        assertEquals(2, RankWaitPolicy.sharingRanks(Settings.defaults(), twoPerNode, 5));
    }

    @Test
    void pretendNodesShareOneMachine() {
        Settings fake = Settings.defaults().with(Setting.FAKE_NODES, "4");
        assertEquals(8, RankWaitPolicy.sharingRanks(fake, NodeMap.blocks(8, 4), 5));
    }

    @Test
    void withoutANodeMapTheMachineCountsAsCrowded() {
        assertEquals(WaitPolicy.YIELD, RankWaitPolicy.forRank(Settings.defaults(), null, 0));
    }
}
