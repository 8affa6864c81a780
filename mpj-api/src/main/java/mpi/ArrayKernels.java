package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

/**
 * {@code MAX MIN SUM PROD} over long vectors of {@code int long float double}, as {@link ReductionKernels} defines
 * them, through primitive arrays: chunk by chunk, both operands are copied into per-thread arrays in bulk, combined
 * there and the result copied out, to the right operand's place or to a third buffer ({@code c = a op b}, which
 * spares a caller that must keep {@code b} the copy of it into {@code c} first). C2 vectorises a loop over arrays,
 * never one over a {@code ByteBuffer}'s accessors (bounds and byte-order checks on every element), so the three
 * passes still beat the one by several times on long vectors; short ones stay with the direct loops, where the
 * copies would not pay. The variants over arrays combine a buffer's range with the user's operand array into the
 * user's result array ({@link ArrayOperands}): the operand is copied into the chunk array and the result out of it.
 */
final class ArrayKernels {
    /** Vectors shorter than this (in values) are left to the direct loops. */
    static final int MIN_VALUES = 64;
    /**
     * Bytes per chunk array: small enough that the two arrays and the lines streaming through them share the L1
     * cache (decision 0097).
     */
    private static final int CHUNK_BYTES = 8 * 1024;
    // a subclass, not withInitial(...::new): linking that method reference is a bootstrap call in the
    // first collective of every rank
    private static final ThreadLocal<Scratch> SCRATCH = new ThreadLocal<>() {
        @Override
        protected Scratch initialValue() {
            return new Scratch();
        }
    };

    private ArrayKernels() {
    }

    /** A thread's chunk arrays, made at first use of each type. */
    private static final class Scratch {
        int[][] ints;
        long[][] longs;
        float[][] floats;
        double[][] doubles;
    }

    /** Whether the operation is one these kernels run, on a vector of {@code n} values long enough to pay. */
    static boolean runs(Op.Kind op, int n) {
        return n >= MIN_VALUES && runs(op);
    }

    /** Whether the operation is one these kernels run. */
    static boolean runs(Op.Kind op) {
        return op == Op.Kind.MAX || op == Op.Kind.MIN || op == Op.Kind.SUM || op == Op.Kind.PROD;
    }

    private static ByteBuffer values(ByteBuffer buffer, int index, int bytes) {
        return buffer.slice(index, bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    static void ints(Op.Kind op, ByteBuffer a, int ai, ByteBuffer b, int bi, ByteBuffer c, int ci, int n) {
        IntBuffer va = values(a, ai, n * 4).asIntBuffer();
        IntBuffer vb = values(b, bi, n * 4).asIntBuffer();
        IntBuffer vc = values(c, ci, n * 4).asIntBuffer();
        int[][] chunks = intChunks();
        int[] x = chunks[0];
        int[] y = chunks[1];
        for (int off = 0; off < n; off += x.length) {
            int len = Math.min(x.length, n - off);
            va.get(off, x, 0, len);
            vb.get(off, y, 0, len);
            apply(op, x, y, len);
            vc.put(off, y, 0, len);
        }
    }

    /**
     * {@code c[ci..] = a op b[bi..]} over {@code n} values, {@code a}'s read from byte {@code ai} of a little-endian
     * buffer: the user's arrays combined where they lie, {@code b} and {@code c} possibly one array at one index.
     */
    static void ints(Op.Kind op, ByteBuffer a, int ai, int[] b, int bi, int[] c, int ci, int n) {
        IntBuffer va = values(a, ai, n * 4).asIntBuffer();
        int[][] chunks = intChunks();
        int[] x = chunks[0];
        int[] y = chunks[1];
        for (int off = 0; off < n; off += x.length) {
            int len = Math.min(x.length, n - off);
            va.get(off, x, 0, len);
            System.arraycopy(b, bi + off, y, 0, len);
            apply(op, x, y, len);
            System.arraycopy(y, 0, c, ci + off, len);
        }
    }

    private static int[][] intChunks() {
        Scratch s = SCRATCH.get();
        if (s.ints == null) {
            s.ints = new int[2][CHUNK_BYTES / 4];
        }
        return s.ints;
    }

    /** {@code y[i] = x[i] op y[i]} for the first {@code len} values. */
    private static void apply(Op.Kind op, int[] x, int[] y, int len) {
        switch (op) {
            case MAX -> { for (int i = 0; i < len; i++) { y[i] = Math.max(x[i], y[i]); } }
            case MIN -> { for (int i = 0; i < len; i++) { y[i] = Math.min(x[i], y[i]); } }
            case SUM -> { for (int i = 0; i < len; i++) { y[i] = x[i] + y[i]; } }
            default -> { for (int i = 0; i < len; i++) { y[i] = x[i] * y[i]; } }
        }
    }

    static void longs(Op.Kind op, ByteBuffer a, int ai, ByteBuffer b, int bi, ByteBuffer c, int ci, int n) {
        LongBuffer va = values(a, ai, n * 8).asLongBuffer();
        LongBuffer vb = values(b, bi, n * 8).asLongBuffer();
        LongBuffer vc = values(c, ci, n * 8).asLongBuffer();
        long[][] chunks = longChunks();
        long[] x = chunks[0];
        long[] y = chunks[1];
        for (int off = 0; off < n; off += x.length) {
            int len = Math.min(x.length, n - off);
            va.get(off, x, 0, len);
            vb.get(off, y, 0, len);
            apply(op, x, y, len);
            vc.put(off, y, 0, len);
        }
    }

    /**
     * {@code c[ci..] = a op b[bi..]} over {@code n} values, {@code a}'s read from byte {@code ai} of a little-endian
     * buffer: the user's arrays combined where they lie, {@code b} and {@code c} possibly one array at one index.
     */
    static void longs(Op.Kind op, ByteBuffer a, int ai, long[] b, int bi, long[] c, int ci, int n) {
        LongBuffer va = values(a, ai, n * 8).asLongBuffer();
        long[][] chunks = longChunks();
        long[] x = chunks[0];
        long[] y = chunks[1];
        for (int off = 0; off < n; off += x.length) {
            int len = Math.min(x.length, n - off);
            va.get(off, x, 0, len);
            System.arraycopy(b, bi + off, y, 0, len);
            apply(op, x, y, len);
            System.arraycopy(y, 0, c, ci + off, len);
        }
    }

    private static long[][] longChunks() {
        Scratch s = SCRATCH.get();
        if (s.longs == null) {
            s.longs = new long[2][CHUNK_BYTES / 8];
        }
        return s.longs;
    }

    /** {@code y[i] = x[i] op y[i]} for the first {@code len} values. */
    private static void apply(Op.Kind op, long[] x, long[] y, int len) {
        switch (op) {
            case MAX -> { for (int i = 0; i < len; i++) { y[i] = Math.max(x[i], y[i]); } }
            case MIN -> { for (int i = 0; i < len; i++) { y[i] = Math.min(x[i], y[i]); } }
            case SUM -> { for (int i = 0; i < len; i++) { y[i] = x[i] + y[i]; } }
            default -> { for (int i = 0; i < len; i++) { y[i] = x[i] * y[i]; } }
        }
    }

    static void floats(Op.Kind op, ByteBuffer a, int ai, ByteBuffer b, int bi, ByteBuffer c, int ci, int n) {
        FloatBuffer va = values(a, ai, n * 4).asFloatBuffer();
        FloatBuffer vb = values(b, bi, n * 4).asFloatBuffer();
        FloatBuffer vc = values(c, ci, n * 4).asFloatBuffer();
        float[][] chunks = floatChunks();
        float[] x = chunks[0];
        float[] y = chunks[1];
        for (int off = 0; off < n; off += x.length) {
            int len = Math.min(x.length, n - off);
            va.get(off, x, 0, len);
            vb.get(off, y, 0, len);
            apply(op, x, y, len);
            vc.put(off, y, 0, len);
        }
    }

    /**
     * {@code c[ci..] = a op b[bi..]} over {@code n} values, {@code a}'s read from byte {@code ai} of a little-endian
     * buffer: the user's arrays combined where they lie, {@code b} and {@code c} possibly one array at one index.
     */
    static void floats(Op.Kind op, ByteBuffer a, int ai, float[] b, int bi, float[] c, int ci, int n) {
        FloatBuffer va = values(a, ai, n * 4).asFloatBuffer();
        float[][] chunks = floatChunks();
        float[] x = chunks[0];
        float[] y = chunks[1];
        for (int off = 0; off < n; off += x.length) {
            int len = Math.min(x.length, n - off);
            va.get(off, x, 0, len);
            System.arraycopy(b, bi + off, y, 0, len);
            apply(op, x, y, len);
            System.arraycopy(y, 0, c, ci + off, len);
        }
    }

    private static float[][] floatChunks() {
        Scratch s = SCRATCH.get();
        if (s.floats == null) {
            s.floats = new float[2][CHUNK_BYTES / 4];
        }
        return s.floats;
    }

    /** {@code y[i] = x[i] op y[i]} for the first {@code len} values. */
    private static void apply(Op.Kind op, float[] x, float[] y, int len) {
        switch (op) {
            case MAX -> { for (int i = 0; i < len; i++) { y[i] = Math.max(x[i], y[i]); } }
            case MIN -> { for (int i = 0; i < len; i++) { y[i] = Math.min(x[i], y[i]); } }
            case SUM -> { for (int i = 0; i < len; i++) { y[i] = x[i] + y[i]; } }
            default -> { for (int i = 0; i < len; i++) { y[i] = x[i] * y[i]; } }
        }
    }

    static void doubles(Op.Kind op, ByteBuffer a, int ai, ByteBuffer b, int bi, ByteBuffer c, int ci, int n) {
        DoubleBuffer va = values(a, ai, n * 8).asDoubleBuffer();
        DoubleBuffer vb = values(b, bi, n * 8).asDoubleBuffer();
        DoubleBuffer vc = values(c, ci, n * 8).asDoubleBuffer();
        double[][] chunks = doubleChunks();
        double[] x = chunks[0];
        double[] y = chunks[1];
        for (int off = 0; off < n; off += x.length) {
            int len = Math.min(x.length, n - off);
            va.get(off, x, 0, len);
            vb.get(off, y, 0, len);
            apply(op, x, y, len);
            vc.put(off, y, 0, len);
        }
    }

    /**
     * {@code c[ci..] = a op b[bi..]} over {@code n} values, {@code a}'s read from byte {@code ai} of a little-endian
     * buffer: the user's arrays combined where they lie, {@code b} and {@code c} possibly one array at one index.
     */
    static void doubles(Op.Kind op, ByteBuffer a, int ai, double[] b, int bi, double[] c, int ci, int n) {
        DoubleBuffer va = values(a, ai, n * 8).asDoubleBuffer();
        double[][] chunks = doubleChunks();
        double[] x = chunks[0];
        double[] y = chunks[1];
        for (int off = 0; off < n; off += x.length) {
            int len = Math.min(x.length, n - off);
            va.get(off, x, 0, len);
            System.arraycopy(b, bi + off, y, 0, len);
            apply(op, x, y, len);
            System.arraycopy(y, 0, c, ci + off, len);
        }
    }

    private static double[][] doubleChunks() {
        Scratch s = SCRATCH.get();
        if (s.doubles == null) {
            s.doubles = new double[2][CHUNK_BYTES / 8];
        }
        return s.doubles;
    }

    /** {@code y[i] = x[i] op y[i]} for the first {@code len} values. */
    private static void apply(Op.Kind op, double[] x, double[] y, int len) {
        switch (op) {
            case MAX -> { for (int i = 0; i < len; i++) { y[i] = Math.max(x[i], y[i]); } }
            case MIN -> { for (int i = 0; i < len; i++) { y[i] = Math.min(x[i], y[i]); } }
            case SUM -> { for (int i = 0; i < len; i++) { y[i] = x[i] + y[i]; } }
            default -> { for (int i = 0; i < len; i++) { y[i] = x[i] * y[i]; } }
        }
    }
}
