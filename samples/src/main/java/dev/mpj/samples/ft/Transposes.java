package dev.mpj.samples.ft;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * The local parts of FT's global transposes, on interleaved complex arrays (see {@link Stockham}):
 * a reorder before the {@code Alltoall} so each peer's block is contiguous, written straight into its send
 * buffer, and a reorder after it out of the receive buffer (both {@link ComplexBytes}). Indices into those
 * buffers count doubles. They only move elements, so their loop order is free; the big one is tiled for the cache.
 */
final class Transposes {
    /** Tile edge of the blocked 2D transpose (NPB's {@code transblock}). */
    static final int TRANSBLOCK = 32;

    private Transposes() {
    }

    /**
     * {@code xout(j, i) = xin(i, j)}: the (n1, n2) matrix xin transposed into the (n2, n1) matrix xout. Like the
     * FFT's drivers, this loop only walks the tiles and the one after the Alltoall runs of rows, a few thousand passes
     * a call, so the JIT compiles the methods they call from whole calls in the untimed first transform and never
     * compiles these loops on the stack with those methods inlined.
     */
    static void transpose2Local(int n1, int n2, double[] xin, ByteBuffer xout) {
        for (int jj = 0; jj < n2; jj += TRANSBLOCK) {
            int cols = Math.min(TRANSBLOCK, n2 - jj);
            for (int ii = 0; ii < n1; ii += TRANSBLOCK) {
                transposeTile(xin, 2 * (ii + n1 * jj), 2 * n1, xout, 2 * (jj + n2 * ii), 2 * n2,
                        Math.min(TRANSBLOCK, n1 - ii), cols);
            }
        }
    }

    /** A tile of {@code rows} rows: row i of xin ({@code count} elements {@code stride} doubles apart) to row i of xout. */
    private static void transposeTile(double[] xin, int from, int stride, ByteBuffer xout, int to, int outStride, int rows,
                                      int count) {
        for (int i = 0; i < rows; i++, from += 2, to += outStride) {
            transposeRow(xin, from, stride, xout, to, count);
        }
    }

    /** One row of a tile: {@code count} elements of xin {@code stride} doubles apart into consecutive elements of xout. */
    private static void transposeRow(double[] xin, int from, int stride, ByteBuffer xout, int to, int count) {
        for (int j = 0; j < count; j++, to += 2, from += stride) {
            ComplexBytes.put(xout, to, xin, from);
        }
    }

    /**
     * After the 1D transpose's Alltoall: {@code xin(n2, n1/np2, 0:np2-1)} to {@code xout(n2*np2, n1/np2)},
     * {@code xout(i + p*n2, j) = xin(i, j, p)}.
     */
    static void transpose2Finish(int n1, int n2, int np2, ByteBuffer received, double[] xout) {
        DoubleBuffer xin = ComplexBytes.doubles(received);
        int cols = n1 / np2;
        for (int p = 0; p < np2; p++) {
            for (int j = 0; j < cols; j += TRANSBLOCK) {
                copyRuns(xin, 2 * n2 * (j + cols * p), 2 * n2, xout, 2 * (p * n2 + n2 * np2 * j), 2 * n2 * np2,
                        Math.min(TRANSBLOCK, cols - j), 2 * n2);
            }
        }
    }

    /** {@code count} runs of {@code n} doubles, {@code stride} doubles apart in xin and {@code outStride} in xout. */
    private static void copyRuns(DoubleBuffer xin, int from, int stride, double[] xout, int to, int outStride, int count,
                                 int n) {
        for (int r = 0; r < count; r++, from += stride, to += outStride) {
            ComplexBytes.copy(xin, from, xout, to, n);
        }
    }

    /** {@code xout(j, k, i) = xin(i, j, k)} for the (d1, d2, d3) array xin. */
    static void xyLocal(int d1, int d2, int d3, double[] xin, ByteBuffer xout) {
        for (int k = 0; k < d3; k++) {
            for (int i = 0; i < d1; i++) {
                int to = 2 * d2 * (k + d3 * i);
                for (int j = 0, from = 2 * (i + d1 * d2 * k); j < d2; j++, from += 2 * d1) {
                    ComplexBytes.put(xout, to + 2 * j, xin, from);
                }
            }
        }
    }

    /** After the x-y Alltoall: {@code xout(i + p*d1/np1, j, k) = xin(i, k, j, p)}, xin being (d1/np1, d3, d2, np1). */
    static void xyFinish(int d1, int d2, int d3, int np1, ByteBuffer received, double[] xout) {
        DoubleBuffer xin = ComplexBytes.doubles(received);
        int part = d1 / np1;
        for (int p = 0; p < np1; p++) {
            for (int k = 0; k < d3; k++) {
                for (int j = 0; j < d2; j++) {
                    ComplexBytes.copy(xin, 2 * part * (k + d3 * (j + d2 * p)), xout, 2 * (p * part + d1 * (j + d2 * k)),
                            2 * part);
                }
            }
        }
    }

    /** {@code xout(k, j, i) = xin(i, j, k)} for the (d1, d2, d3) array xin. */
    static void xzLocal(int d1, int d2, int d3, double[] xin, ByteBuffer xout) {
        for (int j = 0; j < d2; j++) {
            for (int i = 0; i < d1; i++) {
                int to = 2 * d3 * (j + d2 * i);
                for (int k = 0, from = 2 * (i + d1 * j); k < d3; k++, from += 2 * d1 * d2) {
                    ComplexBytes.put(xout, to + 2 * k, xin, from);
                }
            }
        }
    }

    /** After the x-z Alltoall: {@code xout(i + p*d1/np2, j, k) = xin(i, j, k, p)}, xin being (d1/np2, d2, d3, np2). */
    static void xzFinish(int d1, int d2, int d3, int np2, ByteBuffer received, double[] xout) {
        DoubleBuffer xin = ComplexBytes.doubles(received);
        int part = d1 / np2;
        for (int p = 0; p < np2; p++) {
            for (int k = 0; k < d3; k++) {
                for (int j = 0; j < d2; j++) {
                    ComplexBytes.copy(xin, 2 * part * (j + d2 * (k + d3 * p)), xout, 2 * (p * part + d1 * (j + d2 * k)),
                            2 * part);
                }
            }
        }
    }
}
