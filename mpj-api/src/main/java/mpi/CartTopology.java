package mpi;

import java.util.Arrays;

/**
 * The shape of a Cartesian grid: extents and periodicity per dimension. Ranks are laid out in row-major
 * order (the last dimension varies fastest), as in MPICH. Pure arithmetic; {@link Cartcomm} binds it to
 * a communicator.
 */
final class CartTopology {
    private final int[] dims;
    private final boolean[] periods;
    private final int size;

    private CartTopology(int[] dims, boolean[] periods, int size) {
        this.dims = dims;
        this.periods = periods;
        this.size = size;
    }

    /**
     * A grid from user arguments, copied: {@code ERR_ARG} for missing arrays or arrays of different
     * lengths, {@code ERR_DIMS} for an extent below 1 or a grid of more than 2^31 - 1 processes.
     */
    static CartTopology of(String call, int[] dims, boolean[] periods) {
        if (dims == null || periods == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + (dims == null ? "dims" : "periods") + " is null");
        }
        if (dims.length != periods.length) {
            throw new MPIException(MPI.ERR_ARG, call + ": dims has " + dims.length + " entries but periods has "
                    + periods.length);
        }
        long size = 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 1) {
                throw new MPIException(MPI.ERR_DIMS, call + ": dims[" + i + "] must be at least 1, was " + dims[i]);
            }
            size *= dims[i];
            if (size > Integer.MAX_VALUE) {
                throw new MPIException(MPI.ERR_DIMS, call + ": the grid " + Arrays.toString(dims)
                        + " has more than 2^31 - 1 processes");
            }
        }
        return new CartTopology(dims.clone(), periods.clone(), (int) size);
    }

    int ndims() {
        return dims.length;
    }

    /** Processes in the grid: the product of the extents (1 for no dimensions). */
    int size() {
        return size;
    }

    int[] dims() {
        return dims.clone();
    }

    boolean[] periods() {
        return periods.clone();
    }

    /** The coordinates of grid rank {@code rank} (0 ≤ rank < size). */
    int[] coords(int rank) {
        int[] coords = new int[dims.length];
        for (int i = dims.length - 1; i >= 0; i--) {
            coords[i] = rank % dims[i];
            rank /= dims[i];
        }
        return coords;
    }

    /**
     * The grid rank at {@code coords}; periodic dimensions wrap, others raise {@code ERR_ARG} outside
     * 0..extent - 1 (as MPICH does).
     */
    int rank(String call, int[] coords) {
        if (coords == null || coords.length != dims.length) {
            throw new MPIException(MPI.ERR_ARG, call + ": coords must have " + dims.length + " entries, got "
                    + (coords == null ? "null" : Integer.toString(coords.length)));
        }
        int rank = 0;
        for (int i = 0; i < dims.length; i++) {
            int c = coords[i];
            if (periods[i]) {
                c = Math.floorMod(c, dims[i]);
            } else if (c < 0 || c >= dims[i]) {
                throw new MPIException(MPI.ERR_ARG, call + ": coords[" + i + "] = " + c + " is outside 0.."
                        + (dims[i] - 1) + " in a dimension that is not periodic");
            }
            rank = rank * dims[i] + c;
        }
        return rank;
    }

    /**
     * The rank {@code disp} steps from {@code coords} along {@code direction}, or {@link MPI#PROC_NULL}
     * past the edge of a dimension that is not periodic.
     */
    int shifted(int[] coords, int direction, int disp) {
        long c = (long) coords[direction] + disp;
        if (periods[direction]) {
            c = Math.floorMod(c, (long) dims[direction]);
        } else if (c < 0 || c >= dims[direction]) {
            return MPI.PROC_NULL;
        }
        int[] moved = coords.clone();
        moved[direction] = (int) c;
        return rank("Shift", moved);
    }

    /** The grid of the dimensions kept in {@code remain}. */
    CartTopology sub(boolean[] remain) {
        int kept = 0;
        for (boolean r : remain) {
            kept += r ? 1 : 0;
        }
        int[] subDims = new int[kept];
        boolean[] subPeriods = new boolean[kept];
        int size = 1;
        for (int i = 0, j = 0; i < dims.length; i++) {
            if (remain[i]) {
                subDims[j] = dims[i];
                subPeriods[j++] = periods[i];
                size *= dims[i];
            }
        }
        return new CartTopology(subDims, subPeriods, size);
    }

    /**
     * The grid ranks of the sub-grid through {@code rank} that keeps the dimensions in {@code remain}:
     * those whose coordinates agree with {@code rank}'s in every dropped dimension. Ascending grid rank is
     * the row-major order of the kept dimensions, so this is also their order in the sub-grid.
     */
    int[] subGridMembers(boolean[] remain, int rank) {
        int[] mine = coords(rank);
        int[] members = new int[sub(remain).size()];
        int n = 0;
        for (int r = 0; r < size && n < members.length; r++) {
            if (agreeOnDropped(remain, mine, coords(r))) {
                members[n++] = r;
            }
        }
        return members;
    }

    private static boolean agreeOnDropped(boolean[] remain, int[] a, int[] b) {
        for (int i = 0; i < remain.length; i++) {
            if (!remain[i] && a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }
}
