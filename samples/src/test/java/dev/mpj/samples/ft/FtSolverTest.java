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
