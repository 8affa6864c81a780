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
        // the two other dimensions, outer then inner, in i, j, k order
        int outerCount, outerStride, innerCount, innerStride, base;
        switch (d) {
            case 0 -> {
                outerCount = ny; outerStride = sj; innerCount = nz; innerStride = 1; base = index(layer, 1, 1);
            }
            case 1 -> {
                outerCount = nx; outerStride = si; innerCount = nz; innerStride = 1; base = index(1, layer, 1);
            }
            default -> {
                outerCount = nx; outerStride = si; innerCount = ny; innerStride = sj; base = index(1, 1, layer);
            }
        }
        // x and y faces are runs of nz contiguous points, copied as such (an intrinsic from the first call on);
        // z faces are single points a row apart, copied by a small loop the JIT compiles after a few calls
        for (int a = 0, p = 0; a < outerCount; a++, p += innerCount) {
            int at = base + a * outerStride;
            if (innerStride == 1) {
                if (intoGhosts) {
                    System.arraycopy(buf, p, u, at, innerCount);
                } else {
                    System.arraycopy(u, at, buf, p, innerCount);
                }
            } else if (intoGhosts) {
                scatter(buf, p, u, at, innerStride, innerCount);
            } else {
                gather(u, at, innerStride, buf, p, innerCount);
            }
        }
    }

    /** Copies {@code count} points of {@code from}, {@code stride} apart from {@code at} on, into {@code to} at {@code p}. */
    private static void gather(double[] from, int at, int stride, double[] to, int p, int count) {
        for (int b = 0; b < count; b++) {
            to[p + b] = from[at + b * stride];
        }
    }

    /** Copies {@code count} values of {@code from} at {@code p} into points of {@code to} {@code stride} apart from {@code at}. */
    private static void scatter(double[] from, int p, double[] to, int at, int stride, int count) {
        for (int b = 0; b < count; b++) {
            to[at + b * stride] = from[p + b];
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
