package mpi;

import static mpi.MpiTestSupport.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Grid arithmetic: row-major ranks, wrap-around, shifts, sub-grids, and bad arguments. */
class CartTopologyTest {
    /** 4 x 3 x 2: periodic in the first dimension only. */
    private final CartTopology grid = CartTopology.of("test", new int[] {4, 3, 2}, new boolean[] {true, false, false});

    @Test
    void ranksAreRowMajorWithTheLastDimensionFastest() {
        assertEquals(24, grid.size());
        assertEquals(0, grid.rank("test", new int[] {0, 0, 0}));
        assertEquals(1, grid.rank("test", new int[] {0, 0, 1}));
        assertEquals(2, grid.rank("test", new int[] {0, 1, 0}));
        assertEquals(6, grid.rank("test", new int[] {1, 0, 0}));
        assertEquals(23, grid.rank("test", new int[] {3, 2, 1}));
    }

    @Test
    void coordsInvertRank() {
        for (int r = 0; r < grid.size(); r++) {
            assertEquals(r, grid.rank("test", grid.coords(r)));
        }
        assertArrayEquals(new int[] {2, 1, 1}, grid.coords(15));
    }

    @Test
    void periodicCoordinatesWrapBothWays() {
        assertEquals(grid.rank("test", new int[] {0, 1, 1}), grid.rank("test", new int[] {4, 1, 1}));
        assertEquals(grid.rank("test", new int[] {3, 1, 1}), grid.rank("test", new int[] {-1, 1, 1}));
        assertEquals(grid.rank("test", new int[] {1, 1, 1}), grid.rank("test", new int[] {-7, 1, 1}));
    }

    @Test
    void coordinatesOutsideANonPeriodicDimensionAreErrors() {
        assertMpiError(MPI.ERR_ARG, () -> grid.rank("test", new int[] {0, 3, 0}));
        assertMpiError(MPI.ERR_ARG, () -> grid.rank("test", new int[] {0, 0, -1}));
        assertMpiError(MPI.ERR_ARG, () -> grid.rank("test", new int[] {0, 0}));
        assertMpiError(MPI.ERR_ARG, () -> grid.rank("test", null));
    }

    @Test
    void shiftWrapsInAPeriodicDimension() {
        int[] at = {3, 1, 0};

        assertEquals(grid.rank("test", new int[] {0, 1, 0}), grid.shifted(at, 0, 1));
        assertEquals(grid.rank("test", new int[] {1, 1, 0}), grid.shifted(at, 0, 2));
        assertEquals(grid.rank("test", new int[] {2, 1, 0}), grid.shifted(at, 0, -1));
    }

    @Test
    void shiftPastTheEdgeOfANonPeriodicDimensionIsProcNull() {
        int[] at = {3, 2, 0};

        assertEquals(MPI.PROC_NULL, grid.shifted(at, 1, 1));
        assertEquals(grid.rank("test", new int[] {3, 0, 0}), grid.shifted(at, 1, -2));
        assertEquals(MPI.PROC_NULL, grid.shifted(at, 1, -3));
        assertEquals(MPI.PROC_NULL, grid.shifted(at, 2, Integer.MIN_VALUE));
    }

    @Test
    void subGridKeepsTheChosenDimensionsAndTheirPeriodicity() {
        CartTopology plane = grid.sub(new boolean[] {true, false, true});

        assertEquals(8, plane.size());
        assertEquals(2, plane.ndims());
        assertArrayEquals(new int[] {4, 2}, plane.dims());
        assertArrayEquals(new boolean[] {true, false}, plane.periods());
    }

    @Test
    void subGridMembersShareTheDroppedCoordinatesInRowMajorOrder() {
        int rank = grid.rank("test", new int[] {2, 1, 1});

        int[] row = grid.subGridMembers(new boolean[] {true, false, false}, rank);

        assertArrayEquals(new int[] {3, 9, 15, 21}, row, "the (*, 1, 1) line");
        assertArrayEquals(new int[] {rank}, grid.subGridMembers(new boolean[3], rank));
    }

    @Test
    void badShapesAreRejected() {
        assertMpiError(MPI.ERR_ARG, () -> CartTopology.of("test", null, new boolean[0]));
        assertMpiError(MPI.ERR_ARG, () -> CartTopology.of("test", new int[] {2, 2}, new boolean[1]));
        assertMpiError(MPI.ERR_DIMS, () -> CartTopology.of("test", new int[] {2, 0}, new boolean[2]));
        assertMpiError(MPI.ERR_DIMS, () -> CartTopology.of("test", new int[] {65536, 65536}, new boolean[2]));
    }

    @Test
    void aGridOfNoDimensionsHoldsOneProcess() {
        assertEquals(1, CartTopology.of("test", new int[0], new boolean[0]).size());
    }
}
