package dev.mpj.launcher;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Whether the user's own JVM flags already choose something mpjrun would otherwise choose for the ranks: the flags
 * of {@code MPJ_JVM_OPTS} and of the variables every {@code java} reads, which the ranks inherit.
 */
final class UserJvmFlags {
    /** Variables the {@code java} launcher itself reads flags from. */
    static final List<String> JAVA_VARIABLES = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS");

    private UserJvmFlags() {
    }

    /**
     * Whether one of {@code jvmOptions} (from {@code MPJ_JVM_OPTS}) is a flag {@code flag} matches, or one of
     * {@link #JAVA_VARIABLES} in {@code environment} (what the ranks inherit) holds one.
     */
    static boolean name(Pattern flag, List<String> jvmOptions, Map<String, String> environment) {
        for (String option : jvmOptions) {
            if (flag.matcher(option).matches()) {
                return true;
            }
        }
        for (String variable : JAVA_VARIABLES) {
            String value = environment.get(variable);
            if (value != null && flag.matcher(value).find()) {
                return true;
            }
        }
        return false;
    }
}
