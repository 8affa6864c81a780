package mpi;

import dev.mpj.api.CommSpec;

/**
 * A communicator whose processes form a Cartesian grid ({@link Intracomm#Create_cart}): rank r sits at
 * the coordinates of r in row-major order (the last dimension varies fastest).
 *
 * <p>Errors: {@code ERR_ARG} for a missing or wrong-length array, a direction outside the grid's
 * dimensions, or coordinates outside a dimension that is not periodic; {@code ERR_RANK} for a rank
 * outside the communicator; {@code ERR_DIMS} for bad extents.
 */
public class Cartcomm extends Intracomm {
    private final CartTopology grid;

    Cartcomm(String name, CartTopology grid) {
        super(name);
        this.grid = grid;
    }

    @Override
    Intracomm sameKind(String name) {
        return new Cartcomm(name, grid);
    }

    /** {@link Intracomm#Dup} with the same topology. */
    @Override
    public Cartcomm Dup() {
        return (Cartcomm) super.Dup();
    }

    /** {@link MPI#CART}. */
    @Override
    public int Topo_test() {
        spec();
        return MPI.CART;
    }

    /** The grid's extents and periodicity, and the caller's coordinates (copies). */
    public CartParms Get() {
        return new CartParms(grid.dims(), grid.periods(), grid.coords(Rank()));
    }

    /** The rank at {@code coords}; coordinates in periodic dimensions wrap around. */
    public int Rank(int[] coords) {
        spec();
        return grid.rank("Cartcomm.Rank", coords);
    }

    /** The coordinates of {@code rank}. */
    public int[] Coords(int rank) {
        checkRank("Cartcomm.Coords", rank);
        return grid.coords(rank);
    }

    /**
     * The neighbours for a shift by {@code disp} along dimension {@code direction}: {@code rank_dest} is
     * {@code disp} steps ahead of the caller, {@code rank_source} as many behind; {@link MPI#PROC_NULL}
     * past the edge of a dimension that is not periodic. {@code ERR_TOPOLOGY} on a grid of no dimensions.
     */
    public ShiftParms Shift(int direction, int disp) {
        String call = "Cartcomm.Shift";
        int rank = Rank();
        if (grid.ndims() == 0) {
            throw new MPIException(MPI.ERR_TOPOLOGY, call + ": " + this + " has no dimensions to shift along");
        }
        if (direction < 0 || direction >= grid.ndims()) {
            throw new MPIException(MPI.ERR_ARG, call + ": direction " + direction + " is not a dimension of the grid (0.."
                    + (grid.ndims() - 1) + ")");
        }
        int[] coords = grid.coords(rank);
        return new ShiftParms(grid.shifted(coords, direction, -disp), grid.shifted(coords, direction, disp));
    }

    /**
     * Splits the grid into sub-grids that keep the dimensions where {@code remainDims} is true: the
     * caller's sub-grid is the processes that share its coordinates in the dropped dimensions, ranked
     * row-major in the kept ones. With none kept each process gets a grid of its own of no dimensions.
     * Collective; the sub-grids are known locally, so agreeing on a context is the only communication.
     */
    public Cartcomm Sub(boolean[] remainDims) {
        String call = "Cartcomm.Sub";
        CommSpec spec = spec();
        if (remainDims == null || remainDims.length != grid.ndims()) {
            throw new MPIException(MPI.ERR_ARG, call + ": remainDims must have " + grid.ndims() + " entries, got "
                    + (remainDims == null ? "null" : Integer.toString(remainDims.length)));
        }
        int pair = agreeOnContextPair(call, true);
        int[] gridRanks = grid.subGridMembers(remainDims, spec.rank());
        int[] members = new int[gridRanks.length];
        int newRank = -1;
        for (int i = 0; i < gridRanks.length; i++) {
            members[i] = spec.worldRanks()[gridRanks[i]];
            if (gridRanks[i] == spec.rank()) {
                newRank = i;
            }
        }
        return bound(new Cartcomm(this + ".Sub", grid.sub(remainDims)), pair, members, newRank);
    }

    /**
     * The rank the caller would have in a grid of {@code dims} made from this communicator: its own rank
     * if within the grid's size, else {@link MPI#UNDEFINED}. {@code ERR_DIMS} if the grid is larger
     * than the communicator.
     */
    public int Map(int[] dims, boolean[] periods) {
        String call = "Cartcomm.Map";
        CommSpec spec = spec();
        CartTopology other = CartTopology.of(call, dims, periods);
        if (other.size() > spec.size()) {
            throw new MPIException(MPI.ERR_DIMS, call + ": the grid needs " + other.size() + " processes but "
                    + this + " has " + spec.size());
        }
        return spec.rank() < other.size() ? spec.rank() : MPI.UNDEFINED;
    }

    /**
     * Fills the zero entries of {@code dims} so that the product of all entries is {@code nnodes}, as
     * balanced as possible and non-increasing (MPICH's choice: 12 in three dimensions is 3×2×2). Non-zero
     * entries are kept. {@code ERR_ARG} for a null array or {@code nnodes} below 1; {@code ERR_DIMS} for a
     * negative entry, or non-zero entries whose product does not divide {@code nnodes}. Needs no
     * {@code MPI.Init}.
     */
    public static void Dims_create(int nnodes, int[] dims) {
        String call = "Dims_create";
        if (dims == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": dims is null");
        }
        if (nnodes < 1) {
            throw new MPIException(MPI.ERR_ARG, call + ": nnodes must be at least 1, was " + nnodes);
        }
        int free = 0;
        long fixed = 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw new MPIException(MPI.ERR_DIMS, call + ": dims[" + i + "] = " + dims[i] + " is negative");
            }
            if (dims[i] == 0) {
                free++;
            } else {
                fixed *= dims[i];
                if (fixed > nnodes) {
                    break;
                }
            }
        }
        if (nnodes % fixed != 0) {
            throw new MPIException(MPI.ERR_DIMS, call + ": the non-zero entries of dims multiply to " + fixed
                    + (fixed > nnodes ? " or more" : "") + ", which does not divide nnodes = " + nnodes);
        }
        if (free == 0) {
            return;
        }
        int[] factors = BalancedFactors.of((int) (nnodes / fixed), free);
        for (int i = 0, f = 0; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = factors[f++];
            }
        }
    }

    private void checkRank(String call, int rank) {
        int size = Size();
        if (rank < 0 || rank >= size) {
            throw new MPIException(MPI.ERR_RANK, call + ": rank " + rank + " is not a rank of " + this + " (size "
                    + size + ")");
        }
    }
}
