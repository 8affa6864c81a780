package mpi;

import java.util.Arrays;
import java.util.PriorityQueue;

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
 *
 * <p>Under {@code THREAD_MULTIPLE} several threads may create communicators at once, from different parents
 * (MPICH's scheme again): one thread at a time in a process offers the bitmap ({@link #offer}), the others offer
 * an empty one, and the members of a parent keep a pair only when every one of them offered its own bitmap; else
 * they all try again. The thread whose parent has the lowest context takes the bitmap first, so the parent
 * whose members all want it gets it everywhere, and no agreement retries for ever.
 */
final class ContextIds {
    /** Pairs available to derived communicators at once, as many as MPICH's default. */
    static final int PAIRS = 2048;
    static final int WORLD_PAIR = 0;
    static final int SELF_PAIR = 1;
    /** Words of the bitmap exchanged by the members of a parent communicator. */
    static final int WORDS = PAIRS / Long.SIZE;

    /** Words of an {@link #offer}: the bitmap, then all ones when it is the process's own, 0 when empty. */
    static final int OFFER_WORDS = WORDS + 1;
    /** {@link #settle}'s answer when some member offered an empty bitmap. */
    static final int TRY_AGAIN = -2;

    /** Bit p set: pair p is free in this process. */
    private final long[] free = new long[WORDS];
    /** Whether a thread has offered the bitmap and not yet settled. */
    private boolean offered;
    /** The collective contexts of the parents whose members are agreeing on a pair now, lowest first. */
    private final PriorityQueue<Integer> agreeing = new PriorityQueue<>();

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
    synchronized long[] freeBits() {
        return free.clone();
    }

    /** Starts an agreement on a pair for a child of the parent with collective context {@code parent}. */
    synchronized void startAgreeing(int parent) {
        agreeing.add(parent);
    }

    /** Ends it, with or without a pair. */
    synchronized void stopAgreeing(int parent) {
        agreeing.remove(parent);
    }

    /**
     * What this process contributes to one attempt ({@link #OFFER_WORDS}, combined by AND): its bitmap when no
     * other thread's attempt holds it and no parent with a lower context is agreeing, else nothing.
     */
    synchronized long[] offer(int parent) {
        long[] offer = new long[OFFER_WORDS];
        Integer first = agreeing.peek();
        if (!offered && first != null && first == parent) {
            offered = true;
            System.arraycopy(free, 0, offer, 0, WORDS);
            offer[WORDS] = -1L;
        }
        return offer;
    }

    /**
     * Ends an attempt: {@code mine} is what this process offered, {@code combined} every member's offers ANDed.
     * Returns the pair agreed on, reserved here when {@code member} (this process belongs to the new
     * communicator); -1 when no pair is free in every member; {@link #TRY_AGAIN} when some member offered nothing.
     */
    synchronized int settle(long[] mine, long[] combined, boolean member) {
        if (mine[WORDS] != 0) {
            offered = false;
        }
        if (combined[WORDS] == 0) {
            return TRY_AGAIN;
        }
        int pair = lowestFree(combined);
        if (pair >= 0 && member) {
            reserve(pair);
        }
        return pair;
    }

    /** The lowest pair set in a combined bitmap (its first {@link #WORDS} words), or -1 if none is. */
    static int lowestFree(long[] bits) {
        for (int word = 0; word < Math.min(bits.length, WORDS); word++) {
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
            throw noFreePair(call, where);
        }
        return pair;
    }

    /** The error of a collective that found no context pair free in every process of {@code where}. */
    static MPIException noFreePair(String call, String where) {
        return new MPIException(MPI.ERR_OTHER, call + ": no context id is free in " + where
                + " (a process may belong to at most " + (PAIRS - 2)
                + " communicators besides the predefined ones); Free those no longer needed");
    }

    synchronized boolean isFree(int pair) {
        return (free[pair / Long.SIZE] & bit(pair)) != 0;
    }

    synchronized void reserve(int pair) {
        if (!isFree(pair)) {
            throw new MPIException(MPI.ERR_INTERN, "context pair " + pair + " is already in use in this process");
        }
        free[pair / Long.SIZE] &= ~bit(pair);
    }

    synchronized void release(int pair) {
        if (pair == WORLD_PAIR || pair == SELF_PAIR || isFree(pair)) {
            throw new MPIException(MPI.ERR_INTERN, "context pair " + pair + " is not held by a derived communicator");
        }
        free[pair / Long.SIZE] |= bit(pair);
    }

    private static long bit(int pair) {
        return 1L << (pair % Long.SIZE);
    }
}
