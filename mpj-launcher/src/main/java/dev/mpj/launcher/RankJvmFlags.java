package dev.mpj.launcher;

import java.util.List;

/**
 * JVM flags one rank gets on top of those all ranks share, placed before {@code MPJ_JVM_OPTS} so the user's own
 * flags still win (e.g. {@code -Xshare:off}). Used for the class-data archive: every rank maps it, and in the
 * training job one rank writes it.
 */
@FunctionalInterface
public interface RankJvmFlags {
    /** No extra flags for any rank. */
    RankJvmFlags NONE = rank -> List.of();

    List<String> of(int rank);
}
