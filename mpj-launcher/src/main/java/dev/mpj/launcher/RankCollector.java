package dev.mpj.launcher;

import java.util.List;
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
    /** Variables the {@code java} launcher itself reads flags from. */
    static final List<String> JAVA_VARIABLES = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS");
    private static final Pattern COLLECTOR_FLAG =
            Pattern.compile("-XX:[+-]Use(Serial|Parallel|ParallelOld|G1|Z|Shenandoah|Epsilon|ConcMarkSweep)GC");

    private RankCollector() {
    }

    /**
     * The flags that choose the ranks' collector: none when {@code jvmOptions} (from {@code MPJ_JVM_OPTS}) or one
     * of {@link #JAVA_VARIABLES} in {@code environment} (what the ranks inherit) names a collector, else {@link
     * #DEFAULT}.
     */
    static List<String> flags(List<String> jvmOptions, java.util.Map<String, String> environment) {
        for (String option : jvmOptions) {
            if (COLLECTOR_FLAG.matcher(option).matches()) {
                return List.of();
            }
        }
        for (String variable : JAVA_VARIABLES) {
            String value = environment.get(variable);
            if (value != null && COLLECTOR_FLAG.matcher(value).find()) {
                return List.of();
            }
        }
        return List.of(DEFAULT);
    }
}
