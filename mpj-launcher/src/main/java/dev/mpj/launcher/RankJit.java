package dev.mpj.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The JIT thresholds of the rank JVMs ({@code docs/decisions/0058-message-path-compiles-early.md}). HotSpot moves a
 * method to C2 only after thousands of calls in fully profiled C1 code, which on busy cores is most of a short
 * job's message passing; the message path's packages (engine, collectives, transports, the API) get their
 * thresholds scaled down by {@link #SCALE}, so C2 compiles them within the first few hundred calls, while the rest
 * of the JVM (the start-up code, the JDK, the program) keeps HotSpot's. Only with {@code mpj.earlyJit=true}, since
 * the earlier C2 compiles cost a short job more CPU than they save, and not when the user's flags already choose
 * the JIT's thresholds or tiers.
 */
final class RankJit {
    /** Factor on every compile threshold of the message path's methods. */
    static final String SCALE = "0.1";
    /** The message path: every class under these packages, and the runtime's entry class. */
    static final List<String> PATTERNS = List.of("dev/mpj/runtime/engine/*.*", "dev/mpj/runtime/coll/*.*",
            "dev/mpj/runtime/spi/*.*", "dev/mpj/runtime/MpjRuntime.*", "dev/mpj/transport/*.*", "dev/mpj/api/*.*",
            "mpi/*.*");
    private static final Pattern JIT_FLAG = Pattern.compile("-Xint|-Xcomp|-XX:[+-]TieredCompilation"
            + "|-XX:(CompileThresholdScaling|TieredStopAtLevel|Tier\\w*Threshold)=\\S*"
            + "|-XX:CompileCommand=CompileThresholdScaling\\S*");

    private RankJit() {
    }

    /**
     * The flags that scale the message path's thresholds: none when {@code enabled} is false or the user's flags
     * choose the JIT's thresholds or tiers ({@link UserJvmFlags}).
     */
    static List<String> flags(boolean enabled, List<String> jvmOptions, Map<String, String> environment) {
        if (!enabled || UserJvmFlags.name(JIT_FLAG, jvmOptions, environment)) {
            return List.of();
        }
        List<String> flags = new ArrayList<>();
        flags.add("-XX:CompileCommand=quiet"); // else the JVM prints a line per command on the rank's stdout
        for (String pattern : PATTERNS) {
            flags.add("-XX:CompileCommand=CompileThresholdScaling," + pattern + "," + SCALE);
        }
        return List.copyOf(flags);
    }
}
