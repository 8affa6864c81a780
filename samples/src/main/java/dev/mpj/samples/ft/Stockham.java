package dev.mpj.samples.ft;

/**
 * NPB FT's FFTs: many unnormalised radix-2 complex transforms at once, by Swarztrauber's variant of
 * the Stockham algorithm ({@code cfftz}/{@code fftz2}), over blocks of {@code fftblock} lines copied
 * into a scratch array whose leading dimension is {@code fftblockpad} (the padding keeps the lines
 * of a block off the same cache sets). Sign +1 is the forward transform, -1 the inverse (conjugate
 * roots).
 *
 * <p>Arrays are interleaved complex {@code double[]}: element (i, j, k) of a (d1, d2, d3) array is
 * at {@code 2 * (i + d1 * (j + d2 * k))} (real part), Fortran order. A scratch element (j, i), line j
 * of the block at point i, is at {@code 2 * (j + fftblockpad * i)}.
 */
final class Stockham {
    private final int fftblock;
    private final int fftblockpad;
    private final int maxLog;
    /** Roots: index {@code ln + i} holds exp(i·π·i/ln) for ln = 1, 2, 4 … n/2 and 0 ≤ i < ln (NPB's u(ln+1+i)). */
    private final double[] roots;
    private final double[] y0;
    private final double[] y1;

    /** NPB's {@code fft_init(n)} for transforms of up to {@code n} points. */
    Stockham(int n, int fftblock, int fftblockpad) {
        this.fftblock = fftblock;
        this.fftblockpad = fftblockpad;
        this.maxLog = ilog2(n);
        this.roots = new double[2 * Math.max(n, 2)];
        int ln = 1;
        for (int j = 1; j <= maxLog; j++) {
            double t = Math.PI / ln;
            for (int i = 0; i < ln; i++) {
                double ti = i * t;
                roots[2 * (ln + i)] = Math.cos(ti);
                roots[2 * (ln + i) + 1] = Math.sin(ti);
            }
            ln *= 2;
        }
        this.y0 = new double[2 * fftblockpad * n];
        this.y1 = new double[2 * fftblockpad * n];
    }

    /** log2 of a transform length, which must be a power of two within the roots table. */
    private int logOf(int n) {
        int m = ilog2(n);
        if (n < 2 || n != 1 << m || m > maxLog) {
            throw new IllegalArgumentException("transform length " + n + " is not a power of two in 2..2^" + maxLog);
        }
        return m;
    }

    /** Transforms along the first dimension of the (d1, d2, d3) array {@code x} into {@code xout} (may be x). */
    void cffts1(int is, int d1, int d2, int d3, double[] x, double[] xout) {
        int logd1 = logOf(d1);
        for (int k = 0; k < d3; k++) {
            for (int jj = 0; jj <= d2 - fftblock; jj += fftblock) {
                int at = 2 * d1 * (jj + d2 * k);
                linesIn(x, at, d1);
                linesOut(cfftz(is, logd1, d1, y0, y1), xout, at, d1);
            }
        }
    }

    /** Transforms along the second dimension. */
    void cffts2(int is, int d1, int d2, int d3, double[] x, double[] xout) {
        rowTransforms(is, d1, d2, 2 * d1, d3, 2 * d1 * d2, x, xout);
    }

    /** Transforms along the third dimension. */
    void cffts3(int is, int d1, int d2, int d3, double[] x, double[] xout) {
        rowTransforms(is, d1, d3, 2 * d1 * d2, d2, 2 * d1, x, xout);
    }

    /**
     * Transforms of {@code n} points along a dimension other than the first: for each of {@code planes} planes
     * ({@code planeStride} doubles apart), blocks of {@code fftblock} neighbouring lines of the first dimension,
     * whose points are rows {@code rowStride} doubles apart.
     *
     * <p>This and {@link #cffts1} only walk the blocks: the work of each is in methods called once per block, so
     * that the JIT compiles those from many whole calls in the untimed warm-up, and these loops, a few
     * hundred passes a call, never become one compile holding every kernel (compiled on the stack, then again).
     */
    private void rowTransforms(int is, int d1, int n, int rowStride, int planes, int planeStride, double[] x,
                               double[] xout) {
        int logn = logOf(n);
        for (int p = 0; p < planes; p++) {
            for (int ii = 0; ii <= d1 - fftblock; ii += fftblock) {
                int at = p * planeStride + 2 * ii;
                rowsIn(x, at, rowStride, n);
                rowsOut(cfftz(is, logn, n, y0, y1), xout, at, rowStride, n);
            }
        }
    }

    /** Copies {@code fftblock} lines of {@code n} contiguous points, the first at {@code x[at]}, into y0. */
    private void linesIn(double[] x, int at, int n) {
        int pad2 = 2 * fftblockpad;
        for (int j = 0; j < fftblock; j++) {
            int from = at + 2 * n * j;
            for (int i = 0, to = 2 * j; i < n; i++, to += pad2) {
                y0[to] = x[from + 2 * i];
                y0[to + 1] = x[from + 2 * i + 1];
            }
        }
    }

    /** The inverse of {@link #linesIn}: the block's lines from {@code y} back into {@code xout} at {@code at}. */
    private void linesOut(double[] y, double[] xout, int at, int n) {
        int pad2 = 2 * fftblockpad;
        for (int j = 0; j < fftblock; j++) {
            int to = at + 2 * n * j;
            for (int i = 0, from = 2 * j; i < n; i++, from += pad2) {
                xout[to + 2 * i] = y[from];
                xout[to + 2 * i + 1] = y[from + 1];
            }
        }
    }

    /** Copies {@code n} rows of {@code fftblock} points, {@code rowStride} doubles apart from {@code x[at]}, into y0. */
    private void rowsIn(double[] x, int at, int rowStride, int n) {
        for (int j = 0; j < n; j++) {
            System.arraycopy(x, at + rowStride * j, y0, 2 * fftblockpad * j, 2 * fftblock);
        }
    }

    /** The inverse of {@link #rowsIn}: the block's rows from {@code y} back into {@code xout}. */
    private void rowsOut(double[] y, double[] xout, int at, int rowStride, int n) {
        for (int j = 0; j < n; j++) {
            System.arraycopy(y, 2 * fftblockpad * j, xout, at + rowStride * j, 2 * fftblock);
        }
    }

    /**
     * {@code fftblock} transforms of {@code n = 2^m} points held in the scratch block {@code x}, with
     * {@code y} as the other half of the ping-pong; returns the one of the two that holds the result.
     * Steps are taken two at a time ({@link #fftz4}), a last odd one alone ({@link #fftz2}).
     */
    private double[] cfftz(int is, int m, int n, double[] x, double[] y) {
        // one test, false in both directions: with a second test that only the inverse reaches, code compiled
        // after the forward-only warm-up checks the direction ahead of the callers' loops, and the first inverse
        // fails that check and leaves the compiled code
        if ((long) is * is != 1) {
            throw new IllegalArgumentException("cfftz: sign " + is + " is neither 1 nor -1");
        }
        double[] from = x;
        double[] to = y;
        int l = 1;
        for (; l < m; l += 2) {
            fftz4(is, l, m, n, from, to);
            double[] t = from;
            from = to;
            to = t;
        }
        if (l == m) {
            fftz2(is, l, m, n, from, to);
            from = to;
        }
        return from;
    }

    /**
     * Steps l and l + 1 of the Stockham transform at once, from x to y, with the same operations in the same
     * order as {@code fftz2(l)} followed by {@code fftz2(l + 1)}, so the results are identical to the bit; the
     * intermediate values stay in registers, which halves the passes over the scratch block. Step l's
     * butterflies i and i + li/2 (same k) produce exactly the four values step l + 1's butterflies (i, k) and
     * (i, k + lk) consume.
     */
    private void fftz4(int is, int l, int m, int n, double[] x, double[] y) {
        int lk = 1 << (l - 1);
        int li = 1 << (m - l);
        int half = li / 2;
        int ny2 = 2 * fftblock;
        int stride = 2 * fftblockpad;
        int toHigh = stride * (n / 2);          // step l's second input, and step l + 1's
        int toQuarter = stride * (n / 4);        // step l's butterfly i + li/2
        int outStep = stride * lk;
        // the sign as a factor, not a branch on it: compiled while the untimed warm-up runs forward transforms
        // only, a branch would leave the inverse side out and send the first inverse back to the interpreter
        double sign = is;
        for (int i = 0; i < half; i++) {
            double w1r = roots[2 * (li + i)];
            double w1i = sign * roots[2 * (li + i) + 1];
            double w2r = roots[2 * (li + half + i)];
            double w2i = sign * roots[2 * (li + half + i) + 1];
            double vr = roots[2 * (half + i)];
            double vi = sign * roots[2 * (half + i) + 1];
            for (int k = 0; k < lk; k++) {
                int a = stride * (i * lk + k);
                int b = a + toHigh;
                int c = a + toQuarter;
                int d = c + toHigh;
                int o0 = stride * (4 * i * lk + k);
                int o1 = o0 + outStep;
                int o2 = o1 + outStep;
                int o3 = o2 + outStep;
                for (int j = 0; j < ny2; j += 2) {
                    double ar = x[a + j], ai = x[a + j + 1];
                    double br = x[b + j], bi = x[b + j + 1];
                    double cr = x[c + j], ci = x[c + j + 1];
                    double dr = x[d + j], di = x[d + j + 1];
                    // step l, butterfly (i, k): s1 = a + b, d1 = w1 (a - b)
                    double s1r = ar + br, s1i = ai + bi;
                    double tr = ar - br, ti = ai - bi;
                    double d1r = w1r * tr - w1i * ti, d1i = w1r * ti + w1i * tr;
                    // step l, butterfly (i + li/2, k): s2 = c + d, d2 = w2 (c - d)
                    double s2r = cr + dr, s2i = ci + di;
                    tr = cr - dr;
                    ti = ci - di;
                    double d2r = w2r * tr - w2i * ti, d2i = w2r * ti + w2i * tr;
                    // step l + 1, butterflies (i, k) on (s1, s2) and (i, k + lk) on (d1, d2)
                    y[o0 + j] = s1r + s2r;
                    y[o0 + j + 1] = s1i + s2i;
                    tr = s1r - s2r;
                    ti = s1i - s2i;
                    y[o2 + j] = vr * tr - vi * ti;
                    y[o2 + j + 1] = vr * ti + vi * tr;
                    y[o1 + j] = d1r + d2r;
                    y[o1 + j + 1] = d1i + d2i;
                    tr = d1r - d2r;
                    ti = d1i - d2i;
                    y[o3 + j] = vr * tr - vi * ti;
                    y[o3 + j + 1] = vr * ti + vi * tr;
                }
            }
        }
    }

    /** The l-th (1-based) step of the Stockham transform, from x to y. */
    private void fftz2(int is, int l, int m, int n, double[] x, double[] y) {
        int n1 = n / 2;
        int lk = 1 << (l - 1);
        int li = 1 << (m - l);
        int lj = 2 * lk;
        int ny2 = 2 * fftblock;
        int stride = 2 * fftblockpad;
        double sign = is; // a factor rather than a branch, as in fftz4
        for (int i = 0; i < li; i++) {
            int i11 = i * lk;
            int i12 = i11 + n1;
            int i21 = i * lj;
            int i22 = i21 + lk;
            double ur = roots[2 * (li + i)];
            double ui = sign * roots[2 * (li + i) + 1];
            for (int k = 0; k < lk; k++) {
                int a = stride * (i11 + k);
                int b = stride * (i12 + k);
                int c = stride * (i21 + k);
                int d = stride * (i22 + k);
                for (int j = 0; j < ny2; j += 2) {
                    double x11r = x[a + j];
                    double x11i = x[a + j + 1];
                    double x21r = x[b + j];
                    double x21i = x[b + j + 1];
                    y[c + j] = x11r + x21r;
                    y[c + j + 1] = x11i + x21i;
                    double dr = x11r - x21r;
                    double di = x11i - x21i;
                    y[d + j] = ur * dr - ui * di;
                    y[d + j + 1] = ur * di + ui * dr;
                }
            }
        }
    }

    /** log2 of a power of two (NPB's {@code ilog2}, which rounds up). */
    static int ilog2(int n) {
        return n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }
}
