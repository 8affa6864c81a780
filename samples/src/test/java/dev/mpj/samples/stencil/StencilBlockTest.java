package dev.mpj.samples.stencil;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;


class StencilBlockTest {
    @Test
    void initialValuesFollowTheGlobalCoordinates() {
        StencilBlock b = new StencilBlock(3, 4, 5);
        b.initialise(10, 20, 30);
        // (i, j, k) = (2, 3, 4) is global (11, 22, 33)
        assertEquals(((7 * 11 + 13 * 22 + 17 * 33) % 101) / 100.0, b.values()[b.index(2, 3, 4)], 0.0);
        assertEquals(0.0, b.values()[b.index(0, 3, 4)], 0.0, "ghosts start at zero");
    }

    @Test
    void updateAppliesTheKernelInItsSummationOrderAndReturnsTheSquaredChange() {
        int n = 4;
        StencilBlock b = new StencilBlock(n, n, n);
        b.initialise(5, 6, 7);
        double[] u = b.values().clone();
        int si = (n + 2) * (n + 2), sj = n + 2;
        double[] expected = new double[u.length];
        double local = 0, max = 0;
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                for (int k = 1; k <= n; k++) {
                    int at = i * si + j * sj + k;
                    double s = u[at - si] + u[at + si];
                    s += u[at - sj];
                    s += u[at + sj];
                    s += u[at - 1];
                    s += u[at + 1];
                    expected[at] = 0.4 * u[at] + 0.1 * s;
                    double d = expected[at] - u[at];
                    local += d * d;
                    max = Math.max(max, Math.abs(d));
                }
            }
        }
        assertEquals(local, b.update(), 0.0);
        assertEquals(max, b.maxdiff(), 0.0);
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                for (int k = 1; k <= n; k++) {
                    assertEquals(expected[b.index(i, j, k)], b.values()[b.index(i, j, k)], 0.0);
                }
            }
        }
    }

    @Test
    void packedFaceLandsInTheOppositeGhostLayer() {
        StencilBlock from = new StencilBlock(3, 4, 5);
        from.initialise(0, 0, 0);
        StencilBlock to = new StencilBlock(3, 4, 5);
        for (int dir = 0; dir < 6; dir++) {
            double[] face = new double[from.faceSize(dir >> 1)];
            from.pack(dir, face);
            to.unpack(dir ^ 1, face);
        }
        // +x interior layer of `from` is the -x ghost layer of `to`, and so on
        assertEquals(from.values()[from.index(3, 2, 3)], to.values()[to.index(0, 2, 3)], 0.0);
        assertEquals(from.values()[from.index(1, 2, 3)], to.values()[to.index(4, 2, 3)], 0.0);
        assertEquals(from.values()[from.index(2, 4, 3)], to.values()[to.index(2, 0, 3)], 0.0);
        assertEquals(from.values()[from.index(2, 1, 5)], to.values()[to.index(2, 1, 0)], 0.0);
        assertEquals(from.values()[from.index(2, 1, 1)], to.values()[to.index(2, 1, 6)], 0.0);
    }

    @Test
    void everyPackedFaceFillsTheWholeOppositeGhostLayerAndNothingElse() {
        int nx = 3, ny = 4, nz = 5;
        StencilBlock from = new StencilBlock(nx, ny, nz);
        from.initialise(2, 3, 4);
        int[] extent = {nx, ny, nz};
        for (int dir = 0; dir < 6; dir++) {
            int d = dir >> 1;
            boolean high = (dir & 1) != 0;
            StencilBlock to = new StencilBlock(nx, ny, nz);
            double[] face = new double[from.faceSize(d)];
            from.pack(dir, face);
            to.unpack(dir ^ 1, face);
            // the layer `from` sends towards dir is the ghost layer on the opposite side of `to`
            int sent = high ? extent[d] : 1;
            int ghost = high ? 0 : extent[d] + 1;
            for (int i = 0; i <= nx + 1; i++) {
                for (int j = 0; j <= ny + 1; j++) {
                    for (int k = 0; k <= nz + 1; k++) {
                        int[] at = {i, j, k};
                        boolean inFace = at[d] == ghost && inside(at, (d + 1) % 3, extent) && inside(at, (d + 2) % 3, extent);
                        double expected = 0.0;
                        if (inFace) {
                            at[d] = sent;
                            expected = from.values()[from.index(at[0], at[1], at[2])];
                        }
                        assertEquals(expected, to.values()[to.index(i, j, k)], 0.0,
                                "dir " + dir + " at (" + i + ", " + j + ", " + k + ")");
                    }
                }
            }
        }
    }

    private static boolean inside(int[] at, int d, int[] extent) {
        return at[d] >= 1 && at[d] <= extent[d];
    }
}
