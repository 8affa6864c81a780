package dev.mpj.samples.stencil;

import mpi.CartParms;
import mpi.Cartcomm;
import mpi.Intracomm;
import mpi.ShiftParms;

/**
 * The 3D process grid of the stencil, exactly as the kernel's definition asks: {@code Dims_create(np, 3)},
 * {@code Create_cart(dims, periods, reorder = false)}, and each rank's neighbours from {@code Shift(d, 1)}.
 * Dimension 0 is x (index i), 1 is y (j), 2 is z (k). Directions: 0 = -x, 1 = +x, 2 = -y, 3 = +y, 4 = -z,
 * 5 = +z; a closed edge has {@code MPI.PROC_NULL} as its neighbour.
 */
public final class StencilGrid {
    private final Cartcomm cart;
    private final int[] dims;
    private final int[] coords;
    private final int[] neighbours = new int[6];

    public StencilGrid(Intracomm comm, boolean periodic) {
        int[] d = new int[3];
        Cartcomm.Dims_create(comm.Size(), d);
        cart = comm.Create_cart(d, new boolean[] {periodic, periodic, periodic}, false);
        CartParms parms = cart.Get();
        dims = parms.dims;
        coords = parms.coords;
        for (int dim = 0; dim < 3; dim++) {
            ShiftParms s = cart.Shift(dim, 1);
            neighbours[2 * dim] = s.rank_source;
            neighbours[2 * dim + 1] = s.rank_dest;
        }
    }

    /** The Cartesian communicator the halo exchange and the reductions run on. */
    public Cartcomm comm() {
        return cart;
    }

    public int[] dims() {
        return dims.clone();
    }

    public int[] coords() {
        return coords.clone();
    }

    /** The rank next to this one in direction {@code dir} (0..5), or {@code MPI.PROC_NULL} at a closed edge. */
    public int neighbour(int dir) {
        return neighbours[dir];
    }
}
