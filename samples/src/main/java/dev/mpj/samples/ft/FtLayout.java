package dev.mpj.samples.ft;

/**
 * How FT distributes its grid over an {@code np1 x np2} process grid, as NPB's {@code setup}: the
 * extents of the three array layouts on this rank and which part of the global grid it owns in each.
 * <ul>
 *   <li>0D (one rank): every layout is (x, y, z).</li>
 *   <li>1D slabs ({@code np1 = 1}): layout 1 and 2 are (x, y, z/np), layout 3 is (z, x, y/np).</li>
 *   <li>2D pencils: layout 1 is (x, y/np1, z/np2), 2 is (y, x/np1, z/np2), 3 is (z, x/np1, y/np2).</li>
 * </ul>
 * Layouts are numbered 1..3 and coordinates are 1-based, as in NPB, so the index formulas read the same.
 */
public final class FtLayout {
    /** Layout kinds, as NPB's {@code layout_type}. */
    public enum Kind { ZERO_D, ONE_D, TWO_D }

    /**
     * Lines transformed together (NPB's {@code fftblock}, 16 there). Java's scalar butterflies gain from longer
     * runs over a block (about 15 % from 16 to 32 for class A); each line is transformed alone, so the block
     * changes the speed, never the result.
     */
    static final int FFTBLOCK_DEFAULT = 32;
    /** Leading dimension of the scratch block: two spare lines keep the lines of a block off one cache set. */
    static final int FFTBLOCKPAD_DEFAULT = 34;

    public final FtClass cls;
    public final Kind kind;
    public final int np1;
    public final int np2;
    /** This rank's coordinates in the process grid: {@code me1 = me / np2}, {@code me2 = me % np2}. */
    public final int me1;
    public final int me2;
    final int[][] dims = new int[4][];
    final int[] xstart = new int[4];
    final int[] xend = new int[4];
    final int[] ystart = new int[4];
    final int[] yend = new int[4];
    final int[] zstart = new int[4];
    final int[] zend = new int[4];
    final int fftblock;
    final int fftblockpad;
    /** Complex elements on this rank: {@code nx * ny * nz / np}. */
    public final int ntdivnp;

    /**
     * The layout of rank {@code me} of {@code np1 * np2} ranks.
     *
     * @throws IllegalArgumentException when the grid does not divide the problem (the message says why)
     */
    public FtLayout(FtClass cls, int np1, int np2, int me) {
        if (np1 < 1 || np2 < 1) {
            throw new IllegalArgumentException("process grid " + np1 + "x" + np2 + " is not positive");
        }
        this.cls = cls;
        this.np1 = np1;
        this.np2 = np2;
        int np = np1 * np2;
        this.kind = np1 == 1 && np2 == 1 ? Kind.ZERO_D : np1 == 1 ? Kind.ONE_D : Kind.TWO_D;
        requireDivides(np2, cls.nz, "nz");
        requireDivides(np2, cls.ny, "ny");
        requireDivides(np1, cls.ny, "ny");
        requireDivides(np1, cls.nx, "nx");
        int nx = cls.nx, ny = cls.ny, nz = cls.nz;
        switch (kind) {
            case ZERO_D, ONE_D -> {
                dims[1] = new int[] {nx, ny, nz};
                dims[2] = new int[] {nx, ny, nz};
                dims[3] = new int[] {nz, nx, ny};
                if (kind == Kind.ZERO_D) {
                    dims[3] = new int[] {nx, ny, nz};
                }
            }
            case TWO_D -> {
                dims[1] = new int[] {nx, ny, nz};
                dims[2] = new int[] {ny, nx, nz};
                dims[3] = new int[] {nz, nx, ny};
            }
        }
        for (int l = 1; l <= 3; l++) {
            dims[l][1] /= np1;
            dims[l][2] /= np2;
        }
        me2 = me % np2;
        me1 = me / np2;
        ownedRanges(nx, ny, nz);
        int block = FFTBLOCK_DEFAULT;
        if (kind == Kind.TWO_D) {
            for (int l = 1; l <= 3; l++) {
                block = Math.min(block, dims[l][1]);
            }
        }
        fftblock = block;
        fftblockpad = block == FFTBLOCK_DEFAULT ? FFTBLOCKPAD_DEFAULT : block + 3;
        ntdivnp = (int) ((long) nx * ny * nz / np);
    }

    /** NPB's default process grid for {@code np} ranks: 0D at 1, 1D slabs up to nz ranks, 2D beyond. */
    public static int[] defaultGrid(FtClass cls, int np) {
        if (np == 1) {
            return new int[] {1, 1};
        }
        return np <= cls.nz ? new int[] {1, np} : new int[] {cls.nz, np / cls.nz};
    }

    private void ownedRanges(int nx, int ny, int nz) {
        for (int l = 1; l <= 3; l++) {
            xstart[l] = 1;
            xend[l] = nx;
            ystart[l] = 1;
            yend[l] = ny;
            zstart[l] = 1;
            zend[l] = nz;
        }
        if (kind == Kind.ONE_D) {
            for (int l = 1; l <= 2; l++) {
                zstart[l] = 1 + me2 * nz / np2;
                zend[l] = (me2 + 1) * nz / np2;
            }
            ystart[3] = 1 + me2 * ny / np2;
            yend[3] = (me2 + 1) * ny / np2;
        } else if (kind == Kind.TWO_D) {
            ystart[1] = 1 + me1 * ny / np1;
            yend[1] = (me1 + 1) * ny / np1;
            zstart[1] = 1 + me2 * nz / np2;
            zend[1] = (me2 + 1) * nz / np2;
            xstart[2] = 1 + me1 * nx / np1;
            xend[2] = (me1 + 1) * nx / np1;
            zstart[2] = zstart[1];
            zend[2] = zend[1];
            xstart[3] = xstart[2];
            xend[3] = xend[2];
            ystart[3] = 1 + me2 * ny / np2;
            yend[3] = (me2 + 1) * ny / np2;
        }
    }

    private void requireDivides(int parts, int n, String what) {
        if (n % parts != 0 || parts > n) {
            throw new IllegalArgumentException("process grid " + np1 + "x" + np2 + " does not divide class "
                    + cls.name() + ": " + what + " = " + n + " is not a multiple of " + parts);
        }
    }

    /** Extents (d1, d2, d3) of layout {@code l} (1..3) on this rank. */
    public int[] dims(int l) {
        return dims[l].clone();
    }

    /** The largest grid extent: the roots table and the FFT scratch are sized for it. */
    int maxdim() {
        return Math.max(cls.nx, Math.max(cls.ny, cls.nz));
    }

    @Override
    public String toString() {
        return switch (kind) {
            case ZERO_D -> "0D";
            case ONE_D -> "1D";
            case TWO_D -> "2D";
        };
    }
}
