package dev.mpj.runtime.engine;

import dev.mpj.runtime.spi.Idling;
import dev.mpj.runtime.Setting;
import dev.mpj.runtime.Settings;
import dev.mpj.runtime.node.NodeMap;
import org.agrona.concurrent.IdleStrategy;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * How a rank waits for frames that only polling finds (shared memory), setting {@code mpj.waitPolicy}, as Open
 * MPI's {@code mpi_yield_when_idle}: {@link #SPIN} keeps its core (a reply comes within a microsecond, and under
 * load a thread that yields loses its core for a scheduler slice), {@link #YIELD} gives it up soon (ranks
 * outnumber cores, and a spinning rank would keep the one it waits for off the CPU). {@link #AUTO} spins only on
 * a machine with room: the ranks sharing it fit its cores, and it is not already busy with other work (on a
 * machine whose load average exceeded its cores, spinning ranks were measured 2 to 24 times slower than
 * yielding ones, since the rank waited for sits behind the spinner in the run queue). Both back off in the
 * end: nothing spins forever.
 */
public enum WaitPolicy implements Idling {
    /** {@link #SPIN} when the ranks sharing this machine fit its cores and it is not busy, else {@link #YIELD}. */
    AUTO,
    /** Spin 2 ms, yield until 10 ms, then park at most 50 us at a time. */
    SPIN,
    /** Spin 20 us, yield until 200 us, then park at most 50 us at a time. */
    YIELD;

    /** The longest park of either policy: how long a frame may wait in a ring for a rank that has gone idle. */
    static final long MAX_PARK_NANOS = 50_000;

    /** The policy {@code mpj.waitPolicy} asks for (maybe {@link #AUTO}). */
    public static WaitPolicy of(Settings settings) {
        return parse(settings.get(Setting.WAIT_POLICY));
    }

    /** {@code auto}, {@code spin} or {@code yield}, in any case. */
    public static WaitPolicy parse(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "spin" -> SPIN;
            case "yield" -> YIELD;
            default -> throw new IllegalArgumentException(Setting.WAIT_POLICY.property()
                    + " must be auto, spin or yield, not '" + value + "'");
        };
    }

    /**
     * The policy of {@code rank}'s waits: {@link #AUTO} resolved against the ranks that share its machine (the
     * ranks of its node, or the whole job when {@code mpj.fakeNodes} splits one machine into pretend nodes), the
     * cores this JVM may use and the machine's load average now.
     */
    public static WaitPolicy forRank(Settings settings, NodeMap map, int rank) {
        return of(settings).resolve(sharingRanks(settings, map, rank), Runtime.getRuntime().availableProcessors(),
                loadAverage());
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

    /**
     * This policy with {@link #AUTO} decided: spin when {@code ranks} fit in {@code cores} and the load average
     * (negative: unknown) is below {@code cores}.
     */
    public WaitPolicy resolve(int ranks, int cores, double loadAverage) {
        if (this != AUTO) {
            return this;
        }
        return ranks <= cores && loadAverage < cores ? SPIN : YIELD;
    }

    /**
     * How long the thread that calls MPI may leave a transport's I/O untouched before a standby thread serves it
     * (accepts, answers handshakes, notices lost peers) until it comes back. With cores to spare ({@link #SPIN}),
     * 1 ms: a thread unseen that long is computing. With ranks outnumbering cores, a thread unseen for a few ms
     * has usually just lost its core to another rank, and a standby that took the I/O over then, only to hand it
     * back a moment later, cost a fifth to a third of a collective's time (np 16 on 2 cores: alltoall 80 to
     * 60 ms, allreduce 42 to 28 ms with 20 ms); so 20 ms ({@link #AUTO} as {@link #YIELD}).
     */
    @Override
    public long standbyAfterNanos() {
        return this == SPIN ? 1_000_000 : 20_000_000;
    }

    /** A fresh idle strategy for polled waits under this policy ({@link #AUTO} waits as {@link #YIELD}). */
    @Override
    public IdleStrategy pollingIdleStrategy() {
        return this == SPIN
                ? new PollingIdleStrategy(2_000_000, 10_000_000, MAX_PARK_NANOS)
                : new PollingIdleStrategy(20_000, 200_000, MAX_PARK_NANOS);
    }
}
