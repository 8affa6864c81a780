package dev.mpj.launcher;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The garbage collector of the rank JVMs ({@code docs/decisions/0042-ranks-run-the-parallel-collector.md}): the
 * parallel collector, whose write barrier is a card mark, where G1's makes each reference stored into a long-lived
 * object (a message linked into a queue) cost a remembered-set check; unless the user's flags already name a
 * collector, in {@code MPJ_JVM_OPTS} or in the variables every {@code java} reads. On Java 17 the rank of a job of
 * one, which has no peer to queue messages from, runs G1 ({@code docs/decisions/0105-a-job-of-one-runs-g1.md}): there
 * only G1 maps the class-data archive's heap objects, the archived module graph among them, so its start does less.
 * Later Javas load them under the parallel collector too, whose start is then the cheaper one.
 */
final class RankCollector {
    /** The flag the ranks get when the user names no collector. */
    static final String DEFAULT = "-XX:+UseParallelGC";
    /** The flag the rank of a job of one gets when the user names no collector. */
    static final String ALONE = "-XX:+UseG1GC";
    /** The collectors a {@code -XX:+Use…GC} flag may name. */
    private static final Set<String> COLLECTORS =
            Set.of("Serial", "Parallel", "ParallelOld", "G1", "Z", "Shenandoah", "Epsilon", "ConcMarkSweep");

    private RankCollector() {
    }

    /** The last Java on which only G1 maps a class-data archive's heap objects. */
    private static final int LAST_JAVA_ARCHIVING_HEAP_FOR_G1_ONLY = 17;

    /**
     * The flags that choose the collector of the ranks of a job of {@code jobSize} on this Java: none when the user's
     * flags name a collector ({@link UserJvmFlags}), else {@link #ALONE} for a job of one on Java 17 and
     * {@link #DEFAULT} for any other.
     */
    static List<String> flags(int jobSize, List<String> jvmOptions, Map<String, String> environment) {
        return flags(jobSize, Runtime.version().feature(), jvmOptions, environment);
    }

    /** As {@link #flags(int, List, Map)}, for ranks that run Java {@code javaFeatureVersion}. */
    static List<String> flags(int jobSize, int javaFeatureVersion, List<String> jvmOptions,
                              Map<String, String> environment) {
        for (String word : UserJvmFlags.words(jvmOptions, environment)) {
            if (namesCollector(word)) {
                return List.of();
            }
        }
        return List.of(jobSize == 1 && javaFeatureVersion <= LAST_JAVA_ARCHIVING_HEAP_FOR_G1_ONLY ? ALONE : DEFAULT);
    }

    /**
     * Whether {@code flag} is {@code -XX:+Use<collector>GC} or {@code -XX:-Use<collector>GC}; compared as strings, as
     * the launcher's path to the ranks' start links no lambda (a regular expression's character classes are lambdas).
     */
    static boolean namesCollector(String flag) {
        String prefix = "-XX:+Use";
        String suffix = "GC";
        boolean switchFlag = flag.startsWith(prefix) || flag.startsWith("-XX:-Use");
        return switchFlag && flag.endsWith(suffix) && flag.length() >= prefix.length() + suffix.length()
                && COLLECTORS.contains(flag.substring(prefix.length(), flag.length() - suffix.length()));
    }
}
