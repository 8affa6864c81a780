package dev.mpj.samples.stencil;

/**
 * One rank's block of the 7-point stencil: {@code nx x ny x nz} interior points with one ghost layer,
 * at {@code (i * (ny + 2) + j) * (nz + 2) + k}, k fastest, for i, j, k in 0..n+1 (1..n interior).
 * Ghosts start at 0.0 and change only when a halo is received into them.
 */
public final class StencilBlock {
    final int nx;
    final int ny;
    final int nz;
    /** Strides of i and j (k's is 1). */
    final int si;
    final int sj;
    private double[] u;
    private double[] unew;
    private double maxdiff;
    /** max |unew - u| so far in the running {@link #update}. */
    private double rowMax;

    public StencilBlock(int nx, int ny, int nz) {
        if (nx < 1 || ny < 1 || nz < 1) {
            throw new IllegalArgumentException("block " + nx + "x" + ny + "x" + nz + " is empty");
        }
        this.nx = nx;
        this.ny = ny;
        this.nz = nz;
        this.sj = nz + 2;
        this.si = (ny + 2) * sj;
        long size = (long) (nx + 2) * si;
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("block " + nx + "x" + ny + "x" + nz + " is too large for one array");
        }
        this.u = new double[(int) size];
        this.unew = new double[(int) size];
    }

    /**
     * Interior value at global 0-based coordinates (gx, gy, gz) = (x0 + i - 1, y0 + j - 1, z0 + k - 1):
     * {@code ((7 gx + 13 gy + 17 gz) % 101) / 100}.
     */
    public void initialise(long x0, long y0, long z0) {
        for (int i = 1; i <= nx; i++) {
            for (int j = 1; j <= ny; j++) {
                for (int k = 1; k <= nz; k++) {
                    long gx = x0 + i - 1, gy = y0 + j - 1, gz = z0 + k - 1;
                    u[index(i, j, k)] = ((7 * gx + 13 * gy + 17 * gz) % 101) / 100.0;
                }
            }
        }
    }

    public int index(int i, int j, int k) {
        return i * si + j * sj + k;
    }

    /** The current values (interior and ghosts), for the halo exchange to read and fill in place. */
    public double[] values() {
        return u;
    }

    /** Points of a face across dimension {@code d} (0 = x, 1 = y, 2 = z). */
    public int faceSize(int d) {
        return switch (d) {
            case 0 -> ny * nz;
            case 1 -> nx * nz;
            default -> nx * ny;
        };
    }

    /** Copies the interior layer facing direction {@code dir} (0 = -x … 5 = +z) into {@code buf}, in index order. */
    public void pack(int dir, double[] buf) {
        copyFace(dir, buf, false);
    }

    /** Copies {@code buf} into the ghost layer on side {@code dir}. */
    public void unpack(int dir, double[] buf) {
        copyFace(dir, buf, true);
    }

    private void copyFace(int dir, double[] buf, boolean intoGhosts) {
        int d = dir >> 1;
        boolean high = (dir & 1) != 0;
        int n = d == 0 ? nx : d == 1 ? ny : nz;
        int layer = intoGhosts ? (high ? n + 1 : 0) : (high ? n : 1);
        // the face as rows of points in i, j, k order: where it starts in the block, how far apart its rows are,
        // how many there are, and how many points a row has, one apart (x and y faces) or a row of k apart (z)
        int base, rowStride, rows, points;
        switch (d) {
            case 0 -> {
                base = index(layer, 1, 1); rowStride = sj; rows = ny; points = nz;
            }
            case 1 -> {
                base = index(1, layer, 1); rowStride = si; rows = nx; points = nz;
            }
            default -> {
                base = index(1, 1, layer); rowStride = si; rows = nx; points = ny;
            }
        }
        if (d < 2) {
            if (intoGhosts) {
                copyRuns(buf, 0, points, u, base, rowStride, rows, points);
            } else {
                copyRuns(u, base, rowStride, buf, 0, points, rows, points);
            }
        } else if (intoGhosts) {
            copyRows(buf, 0, points, 1, u, base, rowStride, sj, rows, points);
        } else {
            copyRows(u, base, rowStride, sj, buf, 0, points, 1, rows, points);
        }
    }

    /**
     * Copies {@code rows} runs of {@code points} contiguous points, the r-th from {@code from} at
     * {@code f + r * fRow} to {@code to} at {@code t + r * tRow}: the x and y faces, both ways. Its loop holds only
     * the copy intrinsic, so the JIT's compiles of it are small.
     */
    private static void copyRuns(double[] from, int f, int fRow, double[] to, int t, int tRow, int rows, int points) {
        for (int r = 0; r < rows; r++, f += fRow, t += tRow) {
            System.arraycopy(from, f, to, t, points);
        }
    }

    /**
     * Copies {@code rows} rows of {@code points} points: point b of row r from {@code from} at
     * {@code f + r * fRow + b * fPoint} to {@code to} at {@code t + r * tRow + b * tPoint}: the z faces, whose
     * points are a row of the block apart, both ways, through one strided loop.
     */
    private static void copyRows(double[] from, int f, int fRow, int fPoint, double[] to, int t, int tRow, int tPoint,
            int rows, int points) {
        for (int r = 0; r < rows; r++, f += fRow, t += tRow) {
            copyPoints(from, f, fPoint, to, t, tPoint, points);
        }
    }

    /** Copies {@code count} points {@code fStride} apart in {@code from} from {@code f} on to points {@code tStride} apart in {@code to} from {@code t} on. */
    private static void copyPoints(double[] from, int f, int fStride, double[] to, int t, int tStride, int count) {
        for (int b = 0; b < count; b++) {
            to[t + b * tStride] = from[f + b * fStride];
        }
    }

    /**
     * One Jacobi-like step over the interior, in i, j, k ascending order:
     * {@code s = ((((u[i-1] + u[i+1]) + u[j-1]) + u[j+1]) + u[k-1]) + u[k+1]}, {@code unew = 0.4 u + 0.1 s};
     * then the new values become current. Returns the sum of (unew - u)² and records max |unew - u|.
     */
    public double update() {
        double[] a = u;
        double[] b = unew;
        double local = 0.0;
        rowMax = 0.0;
        for (int i = 1; i <= nx; i++) {
            for (int j = 1; j <= ny; j++) {
                local = updateRow(a, b, index(i, j, 1), local);
            }
        }
        u = b;
        unew = a;
        maxdiff = rowMax;
        return local;
    }

    /**
     * One row of {@link #update} along k, from {@code b}'s point {@code from}: adds each point's squared change to
     * {@code local} in k order and returns it, and raises {@link #rowMax}. A method of its own, called once per
     * row, so that the JIT compiles it normally after a few rows of the first sweep, instead of replacing the
     * running sweep on the stack (OSR) much later; one counter indexing every access keeps the range checks
     * out of the loop.
     */
    private double updateRow(double[] a, double[] b, int from, double local) {
        int to = from + nz;
        int si = this.si;
        int sj = this.sj;
        double max = rowMax;
        for (int p = from; p < to; p++) {
            double s = ((((a[p - si] + a[p + si]) + a[p - sj]) + a[p + sj]) + a[p - 1]) + a[p + 1];
            double c = a[p];
            double v = 0.4 * c + 0.1 * s;
            double d = v - c;
            b[p] = v;
            local += d * d;
            double ad = Math.abs(d);
            if (ad > max) {
                max = ad;
            }
        }
        rowMax = max;
        return local;
    }

    /** max |unew - u| of the last {@link #update}. */
    public double maxdiff() {
        return maxdiff;
    }

    /** Sum of the interior values, in i, j, k order. */
    public double sum() {
        double s = 0.0;
        for (int i = 1; i <= nx; i++) {
            for (int j = 1; j <= ny; j++) {
                int at = index(i, j, 1);
                for (int k = 1; k <= nz; k++, at++) {
                    s += u[at];
                }
            }
        }
        return s;
    }
}
