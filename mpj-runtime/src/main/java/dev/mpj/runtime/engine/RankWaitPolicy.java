package dev.mpj.runtime.engine;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.WaitPolicy;
import dev.mpj.runtime.node.NodeMap;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The {@link WaitPolicy} of one rank: {@code mpj.waitPolicy}, with {@link WaitPolicy#AUTO} decided for its machine. */
public final class RankWaitPolicy {
    private RankWaitPolicy() {
    }

    /**
     * The policy of {@code rank}'s waits: {@link WaitPolicy#AUTO} resolved against the ranks that share its machine
     * (the ranks of its node, or the whole job when {@code mpj.fakeNodes} splits one machine into pretend nodes),
     * the cores this JVM may use and the machine's load average now.
     */
    public static WaitPolicy forRank(Settings settings, NodeMap map, int rank) {
        return settings.waitPolicy().resolve(sharingRanks(settings, map, rank),
                Runtime.getRuntime().availableProcessors(), loadAverage());
    }

    /**
     * The one-minute load average from {@code /proc/loadavg}, or -1 when unknown. Not through the operating
     * system MXBean: starting java.lang.management (its cgroup probing, regexes and streams) took some 50 ms of a
     * cold JVM's MPI.Init.
     */
    static double loadAverage() {
        byte[] text = new byte[64];
        try (FileInputStream in = new FileInputStream("/proc/loadavg")) {
            int n = in.read(text);
            int end = 0;
            while (end < n && text[end] != ' ') {
                end++;
            }
            return end == 0 ? -1 : Double.parseDouble(new String(text, 0, end, StandardCharsets.US_ASCII));
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** The ranks on {@code rank}'s machine, as far as the job knows; without a node map, as if crowded. */
    static int sharingRanks(Settings settings, NodeMap map, int rank) {
        if (map == null) {
            return Integer.MAX_VALUE;
        }
        return settings.fakeNodes() > 0 ? map.size() : map.localSize(map.nodeOf(rank));
    }
}
