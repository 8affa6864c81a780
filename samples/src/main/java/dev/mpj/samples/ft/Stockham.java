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
        int pad2 = 2 * fftblockpad;
        for (int k = 0; k < d3; k++) {
            for (int jj = 0; jj <= d2 - fftblock; jj += fftblock) {
                for (int j = 0; j < fftblock; j++) {
                    int from = 2 * d1 * (j + jj + d2 * k);
                    for (int i = 0, to = 2 * j; i < d1; i++, to += pad2) {
                        y0[to] = x[from + 2 * i];
                        y0[to + 1] = x[from + 2 * i + 1];
                    }
                }
                cfftz(is, logd1, d1, y0, y1);
                for (int j = 0; j < fftblock; j++) {
                    int to = 2 * d1 * (j + jj + d2 * k);
                    for (int i = 0, from = 2 * j; i < d1; i++, from += pad2) {
                        xout[to + 2 * i] = y0[from];
                        xout[to + 2 * i + 1] = y0[from + 1];
                    }
                }
            }
        }
    }

    /** Transforms along the second dimension. */
    void cffts2(int is, int d1, int d2, int d3, double[] x, double[] xout) {
        int logd2 = logOf(d2);
        for (int k = 0; k < d3; k++) {
            for (int ii = 0; ii <= d1 - fftblock; ii += fftblock) {
                for (int j = 0; j < d2; j++) {
                    System.arraycopy(x, 2 * (ii + d1 * (j + d2 * k)), y0, 2 * fftblockpad * j, 2 * fftblock);
                }
                cfftz(is, logd2, d2, y0, y1);
                for (int j = 0; j < d2; j++) {
                    System.arraycopy(y0, 2 * fftblockpad * j, xout, 2 * (ii + d1 * (j + d2 * k)), 2 * fftblock);
                }
            }
        }
    }

    /** Transforms along the third dimension. */
    void cffts3(int is, int d1, int d2, int d3, double[] x, double[] xout) {
        int logd3 = logOf(d3);
        for (int j = 0; j < d2; j++) {
            for (int ii = 0; ii <= d1 - fftblock; ii += fftblock) {
                for (int k = 0; k < d3; k++) {
                    System.arraycopy(x, 2 * (ii + d1 * (j + d2 * k)), y0, 2 * fftblockpad * k, 2 * fftblock);
                }
                cfftz(is, logd3, d3, y0, y1);
                for (int k = 0; k < d3; k++) {
                    System.arraycopy(y0, 2 * fftblockpad * k, xout, 2 * (ii + d1 * (j + d2 * k)), 2 * fftblock);
                }
            }
        }
    }

    /**
     * {@code fftblock} transforms of {@code n = 2^m} points held in the scratch block {@code x}, with
     * {@code y} as the other half of the ping-pong; the result is left in {@code x}.
     */
    private void cfftz(int is, int m, int n, double[] x, double[] y) {
        if (is != 1 && is != -1) {
            throw new IllegalArgumentException("cfftz: sign " + is + " is neither 1 nor -1");
        }
        for (int l = 1; l <= m; l += 2) {
            fftz2(is, l, m, n, x, y);
            if (l == m) {
                for (int j = 0; j < n; j++) {
                    System.arraycopy(y, 2 * fftblockpad * j, x, 2 * fftblockpad * j, 2 * fftblock);
                }
                return;
            }
            fftz2(is, l + 1, m, n, y, x);
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
        for (int i = 0; i < li; i++) {
            int i11 = i * lk;
            int i12 = i11 + n1;
            int i21 = i * lj;
            int i22 = i21 + lk;
            double ur = roots[2 * (li + i)];
            double ui = is >= 1 ? roots[2 * (li + i) + 1] : -roots[2 * (li + i) + 1];
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
