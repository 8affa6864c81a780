package dev.mpj.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
     * The words of {@code jvmOptions} (from {@code MPJ_JVM_OPTS}) and of {@link #JAVA_VARIABLES} in
     * {@code environment} (what the ranks inherit): the flags the user gives the ranks.
     */
    static List<String> words(List<String> jvmOptions, Map<String, String> environment) {
        List<String> words = new ArrayList<>(jvmOptions);
        for (String variable : JAVA_VARIABLES) {
            String value = environment.get(variable);
            if (value != null) {
                words.addAll(LaunchOptions.words(value));
            }
        }
        return words;
    }
}
