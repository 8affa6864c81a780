package dev.mpj.it;

import java.util.Map;

import dev.mpj.samples.stencil.StencilBlock;

/**
 * The stencil on the whole global grid in one block, without MPI: the ghosts are the opposite faces
 * when periodic, zero otherwise. What every distribution of the same grid must reproduce.
 */
final class StencilReference {
    private StencilReference() {
    }

    /** residual, res1, maxdiff and checksum after {@code iters} iterations on an nx x ny x nz grid. */
    static Map<String, Double> run(int nx, int ny, int nz, int iters, boolean periodic) {
        StencilBlock b = new StencilBlock(nx, ny, nz);
        b.initialise(0, 0, 0);
        double residual = 0, res1 = 0;
        for (int it = 0; it < iters; it++) {
            if (periodic) {
                for (int dir = 0; dir < 6; dir++) {
                    double[] face = new double[b.faceSize(dir >> 1)];
                    b.pack(dir ^ 1, face);
                    b.unpack(dir, face);
                }
            }
            residual = Math.sqrt(b.update());
            if (it == 0) {
                res1 = residual;
            }
        }
        return Map.of("residual", residual, "res1", res1, "maxdiff", b.maxdiff(), "checksum", b.sum());
    }
}
