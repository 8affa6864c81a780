package dev.mpj.launcher;

import java.util.List;

/**
 * Flags that make every JVM of a job start with less work: the ranks', the agents' and the launcher's own (the
 * mpjrun scripts give the launcher the same list, {@code mpj_start_flags} in {@code mpj-archive-flag}). Each comes
 * before the user's flags, which can undo it (decision 0088).
 */
final class JvmStartFlags {
    /**
     * <ul>
     *   <li>{@code ArchiveRelocationMode=0}: the class-data archive (and the JDK's own) is mapped at the address it
     *   was dumped for, as JDK 17 did before its default changed to "always relocate". Relocating patches every
     *   pointer in the archive, which writes every page: CPU at each start, and pages no longer shared between
     *   the ranks of a node. The JVM still relocates when that address is taken.</li>
     *   <li>{@code jdk.reflect.useNativeAccessorOnly}: from Java 18 on, core reflection spins method handles at its
     *   first use, and {@code FileChannel.map} (the node segment, the shared PMI table) reaches a constructor
     *   through reflection: a cold rank then generates some forty classes that no archive holds. Java 17 ignores
     *   the property.</li>
     * </ul>
     */
    static final List<String> FLAGS = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:ArchiveRelocationMode=0",
            "-Djdk.reflect.useNativeAccessorOnly=true");

    private JvmStartFlags() {
    }
}
