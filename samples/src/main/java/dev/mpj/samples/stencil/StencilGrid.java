package dev.mpj.samples.stencil;

import java.util.Arrays;

import mpi.MPI;

/**
 * The 3D process grid of the stencil: what {@code Cartcomm.Dims_create(np, dims)},
 * {@code Create_cart(dims, periods, reorder = false)} and {@code Shift(d, 1)} give, computed locally.
 * Ranks are laid out row-major over (x, y, z), z fastest, as a Cartesian communicator without
 * reordering numbers them. Directions: 0 = -x, 1 = +x, 2 = -y, 3 = +y, 4 = -z, 5 = +z.
 */
public final class StencilGrid {
    private final int[] dims;
    private final int[] coords;
    private final int[] neighbours = new int[6];

    public StencilGrid(int np, int rank, boolean periodic) {
        if (rank < 0 || rank >= np) {
            throw new IllegalArgumentException("rank " + rank + " outside 0.." + (np - 1));
        }
        this.dims = dimsCreate(np, 3);
        this.coords = coordsOf(rank, dims);
        for (int d = 0; d < 3; d++) {
            neighbours[2 * d] = shifted(d, -1, periodic);
            neighbours[2 * d + 1] = shifted(d, +1, periodic);
        }
    }

    /**
     * A balanced split of {@code nnodes} over {@code ndims} dimensions, in non-increasing order, as MPI's
     * {@code Dims_create} with all dims free: each prime factor, largest first, goes to the dimension
     * with the smallest product so far.
     */
    public static int[] dimsCreate(int nnodes, int ndims) {
        if (nnodes < 1 || ndims < 1) {
            throw new IllegalArgumentException("dimsCreate(" + nnodes + ", " + ndims + ")");
        }
        int[] dims = new int[ndims];
        Arrays.fill(dims, 1);
        int[] primes = new int[32];
        int count = 0;
        int n = nnodes;
        for (int p = 2; (long) p * p <= n; p++) {
            while (n % p == 0) {
                primes[count++] = p;
                n /= p;
            }
        }
        if (n > 1) {
            primes[count++] = n;
        }
        for (int f = count - 1; f >= 0; f--) {
            int smallest = 0;
            for (int d = 1; d < ndims; d++) {
                if (dims[d] < dims[smallest]) {
                    smallest = d;
                }
            }
            dims[smallest] *= primes[f];
        }
        Arrays.sort(dims);
        for (int i = 0, j = ndims - 1; i < j; i++, j--) {
            int t = dims[i];
            dims[i] = dims[j];
            dims[j] = t;
        }
        return dims;
    }

    private static int[] coordsOf(int rank, int[] dims) {
        int[] c = new int[dims.length];
        for (int d = dims.length - 1; d >= 0; d--) {
            c[d] = rank % dims[d];
            rank /= dims[d];
        }
        return c;
    }

    private int rankOf(int[] c) {
        int r = 0;
        for (int d = 0; d < dims.length; d++) {
            r = r * dims[d] + c[d];
        }
        return r;
    }

    private int shifted(int d, int disp, boolean periodic) {
        int[] c = coords.clone();
        c[d] += disp;
        if (c[d] < 0 || c[d] >= dims[d]) {
            if (!periodic) {
                return MPI.PROC_NULL;
            }
            c[d] = Math.floorMod(c[d], dims[d]);
        }
        return rankOf(c);
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
