package mpi;

import java.util.Arrays;

/**
 * The context ids this process may still give to a new communicator, as a bitmap (MPICH's scheme).
 * A communicator takes a <em>pair</em> of context ids: {@code 2p} for point-to-point traffic and
 * {@code 2p + 1} for collective traffic, so the two never match each other. Pair 0 is
 * {@code MPI.COMM_WORLD}'s, pair 1 {@code MPI.COMM_SELF}'s.
 *
 * <p>The members of a parent communicator agree on a pair by combining their bitmaps with a bitwise
 * AND ({@link #freeBits()} in, {@link #lowestFree} out) and taking the lowest pair free everywhere. A
 * process therefore never holds one pair in two communicators at once; two communicators that share a
 * pair have no member in common, so their messages cannot meet in any process's matching queues.
 */
final class ContextIds {
    /** Pairs available to derived communicators at once, as many as MPICH's default. */
    static final int PAIRS = 2048;
    static final int WORLD_PAIR = 0;
    static final int SELF_PAIR = 1;
    /** Words of the bitmap exchanged by the members of a parent communicator. */
    static final int WORDS = PAIRS / Long.SIZE;

    /** Bit p set: pair p is free in this process. */
    private final long[] free = new long[WORDS];

    ContextIds() {
        Arrays.fill(free, -1L);
        reserve(WORLD_PAIR);
        reserve(SELF_PAIR);
    }

    static int pointToPoint(int pair) {
        return 2 * pair;
    }

    static int collective(int pair) {
        return 2 * pair + 1;
    }

    /** The pair a communicator's point-to-point context belongs to. */
    static int pairOf(int pointToPointContext) {
        return pointToPointContext / 2;
    }

    /** A copy of this process's bitmap, to be combined with the other members'. */
    long[] freeBits() {
        return free.clone();
    }

    /** The lowest pair set in a combined bitmap, or -1 if none is. */
    static int lowestFree(long[] bits) {
        for (int word = 0; word < bits.length; word++) {
            if (bits[word] != 0) {
                return word * Long.SIZE + Long.numberOfTrailingZeros(bits[word]);
            }
        }
        return -1;
    }

    /**
     * The lowest pair set in {@code common}, the bitmaps of the processes of {@code where} combined; ERR_OTHER when
     * none is, the same in every process that combined the same bitmaps.
     */
    static int agreedPair(String call, long[] common, String where) {
        int pair = lowestFree(common);
        if (pair < 0) {
            throw new MPIException(MPI.ERR_OTHER, call + ": no context id is free in " + where
                    + " (a process may belong to at most " + (PAIRS - 2)
                    + " communicators besides the predefined ones); Free those no longer needed");
        }
        return pair;
    }

    boolean isFree(int pair) {
        return (free[pair / Long.SIZE] & bit(pair)) != 0;
    }

    void reserve(int pair) {
        if (!isFree(pair)) {
            throw new MPIException(MPI.ERR_INTERN, "context pair " + pair + " is already in use in this process");
        }
        free[pair / Long.SIZE] &= ~bit(pair);
    }

    void release(int pair) {
        if (pair == WORLD_PAIR || pair == SELF_PAIR || isFree(pair)) {
            throw new MPIException(MPI.ERR_INTERN, "context pair " + pair + " is not held by a derived communicator");
        }
        free[pair / Long.SIZE] |= bit(pair);
    }

    private static long bit(int pair) {
        return 1L << (pair % Long.SIZE);
    }
}
