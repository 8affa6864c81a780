package dev.mpj.samples.ft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** FT on one rank (the 0D layout needs no communication), and the class table, without MPI. */
class FtSolverTest {
    @Test
    void classSOnOneRankReproducesNpbsChecksums() {
        FtClass cls = FtClass.S;
        FtSolver solver = new FtSolver(new FtLayout(cls, 1, 1, 0), null, null, new FtTimers(false));
        solver.setupAndForward();
        double[][] sums = new double[cls.niter][];
        for (int t = 1; t <= cls.niter; t++) {
            solver.step();
            sums[t - 1] = solver.localChecksum(solver.u2);
            assertTrue(FtClass.relativeError(sums[t - 1], cls.reference(t)) <= FtClass.EPSILON, "iteration " + t);
        }
        assertTrue(cls.verify(sums));
    }

    @Test
    void twiddleIsNpbsExponentialOfTheSquaredWaveNumbersAtEveryPointOfEveryLayout() {
        // rank 0 of one (0D), rank 1 of two (1D slabs), rank 3 of a 2 x 2 grid (2D pencils); nx differs from nz
        FtLayout[] layouts = {new FtLayout(FtClass.W, 1, 1, 0), new FtLayout(FtClass.W, 1, 2, 1),
            new FtLayout(FtClass.W, 2, 2, 3)};
        for (FtLayout layout : layouts) {
            FtSolver solver = new FtSolver(layout, null, null, new FtTimers(false));
            solver.computeIndexMap();
            FtClass c = layout.cls;
            int[] d = layout.dims[3];
            // NPB's compute_indexmap, a mod at every point; layout 3 is (z, x, y) except in 0D, (x, y, z)
            boolean zeroD = layout.kind == FtLayout.Kind.ZERO_D;
            int dx = zeroD ? d[0] : d[1], dy = zeroD ? d[1] : d[2], dz = zeroD ? d[2] : d[0];
            double ap = -4.0 * 1.0e-6 * Math.PI * Math.PI;
            for (int i = 1; i <= dx; i++) {
                for (int j = 1; j <= dy; j++) {
                    for (int k = 1; k <= dz; k++) {
                        int ii = Math.floorMod(i + layout.xstart[3] - 2 + c.nx / 2, c.nx) - c.nx / 2;
                        int jj = Math.floorMod(j + layout.ystart[3] - 2 + c.ny / 2, c.ny) - c.ny / 2;
                        int kk = Math.floorMod(k + layout.zstart[3] - 2 + c.nz / 2, c.nz) - c.nz / 2;
                        int at = zeroD ? (i - 1) + dx * ((j - 1) + dy * (k - 1))
                                : (k - 1) + dz * ((i - 1) + dx * (j - 1));
                        assertEquals(Math.exp(ap * (double) (kk * kk + (jj * jj + ii * ii))), solver.twiddle[at], 0.0,
                                layout.kind + " at (" + i + ", " + j + ", " + k + ")");
                    }
                }
            }
        }
    }

    @Test
    void verificationRejectsAnErrorAboveTheToleranceAndNan() {
        FtClass cls = FtClass.W;
        double[][] sums = new double[cls.niter][];
        for (int t = 1; t <= cls.niter; t++) {
            sums[t - 1] = cls.reference(t);
        }
        assertTrue(cls.verify(sums));
        sums[3][1] *= 1 + 3e-12;
        assertFalse(cls.verify(sums));
        sums[3] = new double[] {Double.NaN, 0};
        assertFalse(cls.verify(sums));
    }

    @Test
    void mopsFollowNpbsOperationCount() {
        // NPB's counts: class A 7136.444 Mop, class B 92053.591 Mop
        assertEquals(7136.444, FtClass.A.mops(1.0), 1e-3);
        assertEquals(92053.591 / 2, FtClass.B.mops(2.0), 1e-3);
    }

    @Test
    void defaultGridIsSlabsUpToNzRanksThenPencils() {
        assertEquals("[1, 1]", java.util.Arrays.toString(FtLayout.defaultGrid(FtClass.S, 1)));
        assertEquals("[1, 32]", java.util.Arrays.toString(FtLayout.defaultGrid(FtClass.W, 32)));
        assertEquals("[32, 2]", java.util.Arrays.toString(FtLayout.defaultGrid(FtClass.W, 64)));
    }

    @Test
    void gridThatDoesNotDivideTheProblemIsRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new FtLayout(FtClass.W, 1, 64, 0));
        assertTrue(e.getMessage().contains("nz = 32"), e.getMessage());
    }

    @Test
    void classCNeedsSeveralGibibytesPerRankOnFewRanks() {
        assertTrue(FtSolver.bytesPerRank(FtClass.C, 1) > 6L << 30);
        assertTrue(FtSolver.bytesPerRank(FtClass.C, 8) < 2L << 30);
    }
}
