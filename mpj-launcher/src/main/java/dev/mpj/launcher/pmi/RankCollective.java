package dev.mpj.launcher.pmi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A collective that holds one entry per rank and answers every rank once all have entered ({@link JobRing},
 * {@link JobAllgather}). Entering twice fails the rank, and so does entering once a rank has finalized, since the
 * collective could then never complete. Used on the server thread only.
 *
 * @param <E> what a rank entered with, its connection included
 */
abstract class RankCollective<E> {
    private final String name;
    private final Object[] entries;
    private final int expected;
    private int entered;
    private int firstFinalizedRank = -1;

    /**
     * @param name     the collective, as it reads after "the PMI" in failure messages
     * @param size     the job's ranks
     * @param expected the ranks this server serves, whose entries complete it here
     */
    RankCollective(String name, int size, int expected) {
        this.name = name;
        this.entries = new Object[size];
        this.expected = expected;
    }

    /** The connection {@code entry} came on. */
    abstract PmiClientConnection connection(E entry);

    /**
     * Every served rank has entered: answer them (or send their entries up the tree); {@code all} is in rank order
     * and the collective is empty again.
     */
    abstract void complete(List<E> all);

    /** {@code c} enters with {@code entry}; the last rank to enter completes the collective. */
    @SuppressWarnings("unchecked")
    final void enter(PmiClientConnection c, E entry) {
        int rank = c.rank();
        if (entries[rank] != null) {
            c.fail("entered the PMI " + name + " twice");
            return;
        }
        if (firstFinalizedRank >= 0) {
            c.fail("entered the PMI " + name + " after rank " + firstFinalizedRank + " had finalized; it could"
                    + " never complete");
            return;
        }
        entries[rank] = entry;
        entered++;
        if (entered == expected) {
            List<E> all = new ArrayList<>(expected);
            for (Object e : entries) {
                if (e != null) {
                    all.add((E) e);
                }
            }
            Arrays.fill(entries, null); // before answering: a failed write closes its connection, which leaves
            entered = 0;
            complete(all);
        }
    }

    /** How many ranks wait in the collective. */
    final int waiting() {
        return entered;
    }

    final void rankFinalized(int rank) {
        if (firstFinalizedRank < 0) {
            firstFinalizedRank = rank;
        }
    }

    /** {@code c} closed: it no longer counts as entered. */
    @SuppressWarnings("unchecked")
    final void leave(PmiClientConnection c) {
        int rank = c.rank();
        if (rank >= 0 && entries[rank] != null && connection((E) entries[rank]) == c) {
            entries[rank] = null;
            entered--;
        }
    }
}
