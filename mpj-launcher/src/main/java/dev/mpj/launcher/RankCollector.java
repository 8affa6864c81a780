package dev.mpj.launcher;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The garbage collector of the rank JVMs ({@code docs/decisions/0042-ranks-run-the-parallel-collector.md}): the
 * parallel collector, whose write barrier is a card mark, where G1's makes each reference stored into a long-lived
 * object (a message linked into a queue) cost a remembered-set check; unless the user's flags already name a
 * collector, in {@code MPJ_JVM_OPTS} or in the variables every {@code java} reads.
 */
final class RankCollector {
    /** The flag the ranks get when the user names no collector. */
    static final String DEFAULT = "-XX:+UseParallelGC";
    private static final Pattern COLLECTOR_FLAG =
            Pattern.compile("-XX:[+-]Use(Serial|Parallel|ParallelOld|G1|Z|Shenandoah|Epsilon|ConcMarkSweep)GC");

    private RankCollector() {
    }

    /**
     * The flags that choose the ranks' collector: none when the user's flags name a collector ({@link
     * UserJvmFlags}), else {@link #DEFAULT}.
     */
    static List<String> flags(List<String> jvmOptions, Map<String, String> environment) {
        return UserJvmFlags.name(COLLECTOR_FLAG, jvmOptions, environment) ? List.of() : List.of(DEFAULT);
    }
}
