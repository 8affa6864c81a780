package dev.mpj.launcher;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The garbage collector of the rank JVMs ({@code docs/decisions/0042-ranks-run-the-parallel-collector.md}): the
 * parallel collector, whose write barrier is a card mark, where G1's makes each reference stored into a long-lived
 * object (a message linked into a queue) cost a remembered-set check; unless the user's flags already name a
 * collector, in {@code MPJ_JVM_OPTS} or in the variables every {@code java} reads. The rank of a job of one, which
 * has no peer to queue messages from, runs G1 ({@code docs/decisions/0105-a-job-of-one-runs-g1.md}): on Java 17 only
 * G1 maps the class-data archive's heap objects, the archived module graph among them, so its start does less.
 */
final class RankCollector {
    /** The flag the ranks get when the user names no collector. */
    static final String DEFAULT = "-XX:+UseParallelGC";
    /** The flag the rank of a job of one gets when the user names no collector. */
    static final String ALONE = "-XX:+UseG1GC";
    private static final Pattern COLLECTOR_FLAG =
            Pattern.compile("-XX:[+-]Use(Serial|Parallel|ParallelOld|G1|Z|Shenandoah|Epsilon|ConcMarkSweep)GC");

    private RankCollector() {
    }

    /**
     * The flags that choose the collector of the ranks of a job of {@code jobSize}: none when the user's flags name a
     * collector ({@link UserJvmFlags}), else {@link #ALONE} for a job of one and {@link #DEFAULT} for any other.
     */
    static List<String> flags(int jobSize, List<String> jvmOptions, Map<String, String> environment) {
        if (UserJvmFlags.name(COLLECTOR_FLAG, jvmOptions, environment)) {
            return List.of();
        }
        return List.of(jobSize == 1 ? ALONE : DEFAULT);
    }
}
