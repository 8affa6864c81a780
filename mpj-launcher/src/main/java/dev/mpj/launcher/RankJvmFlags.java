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
    RankJvmFlags NONE = new FirstAndOthers(List.of(), List.of());

    List<String> of(int rank);

    /**
     * Whether the ranks may map a node segment, so that their JVMs need {@link RankCommand#SEGMENT_EXPORT}: all but
     * the rank of a job of one started with its own archive ({@link DirectStartArchive}).
     */
    default boolean mapsSegment() {
        return true;
    }

    /** {@code flags} for every rank. */
    static RankJvmFlags everyRank(List<String> flags) {
        return new FirstAndOthers(List.copyOf(flags), List.copyOf(flags));
    }

    /** {@code flags} for rank 0 alone. */
    static RankJvmFlags rankZero(List<String> flags) {
        return new FirstAndOthers(List.copyOf(flags), List.of());
    }

    /**
     * Rank 0's flags and every other rank's. A named class, not a lambda: the launcher's class-data archive keeps
     * the classes its training job loaded, and that job takes {@link #rankZero}, so every job finds this class there
     * rather than spinning a lambda class at its start.
     */
    record FirstAndOthers(List<String> first, List<String> others) implements RankJvmFlags {
        @Override
        public List<String> of(int rank) {
            return rank == 0 ? first : others;
        }
    }
}
