package dev.mpj.samples.ft;

import mpi.Intracomm;

/**
 * {@code MPI_Comm_split} for FT's 2D process grid. Grids of one row or one column need no split (one
 * communicator is the world, the other this rank alone); a grid with both sides above one does.
 */
final class Slices {
    /** Whether {@link #split} works in this build. */
    static final boolean SPLIT_AVAILABLE = false;

    private Slices() {
    }

    /** The ranks of {@code comm} with the same {@code color}, ordered by {@code key}. */
    static Intracomm split(Intracomm comm, int color, int key) {
        // Intracomm.Split is not in this build yet; once it is: return comm.Split(color, key);
        throw new UnsupportedOperationException("Intracomm.Split is not available in this build");
    }
}
