package mpi;

import java.nio.ByteBuffer;

/**
 * The loops of the predefined reduction operations: {@code b[i] = a[i] op b[i]} over {@code n} values
 * (or pairs) of packed little-endian data, read and written in place with absolute indices (bytes
 * {@code ai} and {@code bi} on). One loop per operation and type, so the JIT compiles each to a tight
 * primitive loop: no boxing, no allocation, no dispatch per element. Both buffers must be little-endian.
 */
final class ReductionKernels {
    private ReductionKernels() {
    }

    /** The integer operations on byte values (signed, wrapping); logical ones give 1 or 0. */
    static void bytes(Op.Kind op, ByteBuffer a, int ai, ByteBuffer b, int bi, int n) {
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    byte x = a.get(ai + i);
                    byte y = b.get(bi + i);
                    b.put(bi + i, (byte) (x > y ? x : y));
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    byte x = a.get(ai + i);
                    byte y = b.get(bi + i);
                    b.put(bi + i, (byte) (x < y ? x : y));
                }
            }
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    byte x = a.get(ai + i);
                    byte y = b.get(bi + i);
                    b.put(bi + i, (byte) (x + y));
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    byte x = a.get(ai + i);
                    byte y = b.get(bi + i);
                    b.put(bi + i, (byte) (x * y));
                }
            }
            case LAND -> {
                for (int i = 0; i < n; i++) {
                    byte x = a.get(ai + i);
                    byte y = b.get(bi + i);
                    b.put(bi + i, x != 0 && y != 0 ? (byte) 1 : (byte) 0);
                }
            }
            case BAND -> {
                for (int i = 0; i < n; i++) {
                    byte x = a.get(ai + i);
                    byte y = b.get(bi + i);
                    b.put(bi + i, (byte) (x & y));
                }
            }
            case LOR -> {
                for (int i = 0; i < n; i++) {
                    byte x = a.get(ai + i);
                    byte y = b.get(bi + i);
                    b.put(bi + i, x != 0 || y != 0 ? (byte) 1 : (byte) 0);
                }
            }
            case BOR -> {
                for (int i = 0; i < n; i++) {
                    byte x = a.get(ai + i);
                    byte y = b.get(bi + i);
                    b.put(bi + i, (byte) (x | y));
                }
            }
            case LXOR -> {
                for (int i = 0; i < n; i++) {
                    byte x = a.get(ai + i);
                    byte y = b.get(bi + i);
                    b.put(bi + i, (x != 0) != (y != 0) ? (byte) 1 : (byte) 0);
                }
            }
            case BXOR -> {
                for (int i = 0; i < n; i++) {
                    byte x = a.get(ai + i);
                    byte y = b.get(bi + i);
                    b.put(bi + i, (byte) (x ^ y));
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
    }

    /** The integer operations on short values (signed, wrapping); logical ones give 1 or 0. */
    static void shorts(Op.Kind op, ByteBuffer a, int ai, ByteBuffer b, int bi, int n) {
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    short x = a.getShort(ai + i * 2);
                    short y = b.getShort(bi + i * 2);
                    b.putShort(bi + i * 2, (short) (x > y ? x : y));
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    short x = a.getShort(ai + i * 2);
                    short y = b.getShort(bi + i * 2);
                    b.putShort(bi + i * 2, (short) (x < y ? x : y));
                }
            }
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    short x = a.getShort(ai + i * 2);
                    short y = b.getShort(bi + i * 2);
                    b.putShort(bi + i * 2, (short) (x + y));
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    short x = a.getShort(ai + i * 2);
                    short y = b.getShort(bi + i * 2);
                    b.putShort(bi + i * 2, (short) (x * y));
                }
            }
            case LAND -> {
                for (int i = 0; i < n; i++) {
                    short x = a.getShort(ai + i * 2);
                    short y = b.getShort(bi + i * 2);
                    b.putShort(bi + i * 2, x != 0 && y != 0 ? (short) 1 : (short) 0);
                }
            }
            case BAND -> {
                for (int i = 0; i < n; i++) {
                    short x = a.getShort(ai + i * 2);
                    short y = b.getShort(bi + i * 2);
                    b.putShort(bi + i * 2, (short) (x & y));
                }
            }
            case LOR -> {
                for (int i = 0; i < n; i++) {
                    short x = a.getShort(ai + i * 2);
                    short y = b.getShort(bi + i * 2);
                    b.putShort(bi + i * 2, x != 0 || y != 0 ? (short) 1 : (short) 0);
                }
            }
            case BOR -> {
                for (int i = 0; i < n; i++) {
                    short x = a.getShort(ai + i * 2);
                    short y = b.getShort(bi + i * 2);
                    b.putShort(bi + i * 2, (short) (x | y));
                }
            }
            case LXOR -> {
                for (int i = 0; i < n; i++) {
                    short x = a.getShort(ai + i * 2);
                    short y = b.getShort(bi + i * 2);
                    b.putShort(bi + i * 2, (x != 0) != (y != 0) ? (short) 1 : (short) 0);
                }
            }
            case BXOR -> {
                for (int i = 0; i < n; i++) {
                    short x = a.getShort(ai + i * 2);
                    short y = b.getShort(bi + i * 2);
                    b.putShort(bi + i * 2, (short) (x ^ y));
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
    }

    /** The integer operations on char values (unsigned, wrapping); logical ones give 1 or 0. */
    static void chars(Op.Kind op, ByteBuffer a, int ai, ByteBuffer b, int bi, int n) {
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    char x = a.getChar(ai + i * 2);
                    char y = b.getChar(bi + i * 2);
                    b.putChar(bi + i * 2, (char) (x > y ? x : y));
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    char x = a.getChar(ai + i * 2);
                    char y = b.getChar(bi + i * 2);
                    b.putChar(bi + i * 2, (char) (x < y ? x : y));
                }
            }
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    char x = a.getChar(ai + i * 2);
                    char y = b.getChar(bi + i * 2);
                    b.putChar(bi + i * 2, (char) (x + y));
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    char x = a.getChar(ai + i * 2);
                    char y = b.getChar(bi + i * 2);
                    b.putChar(bi + i * 2, (char) (x * y));
                }
            }
            case LAND -> {
                for (int i = 0; i < n; i++) {
                    char x = a.getChar(ai + i * 2);
                    char y = b.getChar(bi + i * 2);
                    b.putChar(bi + i * 2, x != 0 && y != 0 ? (char) 1 : (char) 0);
                }
            }
            case BAND -> {
                for (int i = 0; i < n; i++) {
                    char x = a.getChar(ai + i * 2);
                    char y = b.getChar(bi + i * 2);
                    b.putChar(bi + i * 2, (char) (x & y));
                }
            }
            case LOR -> {
                for (int i = 0; i < n; i++) {
                    char x = a.getChar(ai + i * 2);
                    char y = b.getChar(bi + i * 2);
                    b.putChar(bi + i * 2, x != 0 || y != 0 ? (char) 1 : (char) 0);
                }
            }
            case BOR -> {
                for (int i = 0; i < n; i++) {
                    char x = a.getChar(ai + i * 2);
                    char y = b.getChar(bi + i * 2);
                    b.putChar(bi + i * 2, (char) (x | y));
                }
            }
            case LXOR -> {
                for (int i = 0; i < n; i++) {
                    char x = a.getChar(ai + i * 2);
                    char y = b.getChar(bi + i * 2);
                    b.putChar(bi + i * 2, (x != 0) != (y != 0) ? (char) 1 : (char) 0);
                }
            }
            case BXOR -> {
                for (int i = 0; i < n; i++) {
                    char x = a.getChar(ai + i * 2);
                    char y = b.getChar(bi + i * 2);
                    b.putChar(bi + i * 2, (char) (x ^ y));
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
    }

    /** The integer operations on int values (signed, wrapping); logical ones give 1 or 0. */
    static void ints(Op.Kind op, ByteBuffer a, int ai, ByteBuffer b, int bi, int n) {
        if (ArrayKernels.runs(op, n)) {
            ArrayKernels.ints(op, a, ai, b, bi, b, bi, n);
            return;
        }
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    int x = a.getInt(ai + i * 4);
                    int y = b.getInt(bi + i * 4);
                    b.putInt(bi + i * 4, x > y ? x : y);
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    int x = a.getInt(ai + i * 4);
                    int y = b.getInt(bi + i * 4);
                    b.putInt(bi + i * 4, x < y ? x : y);
                }
            }
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    int x = a.getInt(ai + i * 4);
                    int y = b.getInt(bi + i * 4);
                    b.putInt(bi + i * 4, (x + y));
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    int x = a.getInt(ai + i * 4);
                    int y = b.getInt(bi + i * 4);
                    b.putInt(bi + i * 4, (x * y));
                }
            }
            case LAND -> {
                for (int i = 0; i < n; i++) {
                    int x = a.getInt(ai + i * 4);
                    int y = b.getInt(bi + i * 4);
                    b.putInt(bi + i * 4, x != 0 && y != 0 ? 1 : 0);
                }
            }
            case BAND -> {
                for (int i = 0; i < n; i++) {
                    int x = a.getInt(ai + i * 4);
                    int y = b.getInt(bi + i * 4);
                    b.putInt(bi + i * 4, (x & y));
                }
            }
            case LOR -> {
                for (int i = 0; i < n; i++) {
                    int x = a.getInt(ai + i * 4);
                    int y = b.getInt(bi + i * 4);
                    b.putInt(bi + i * 4, x != 0 || y != 0 ? 1 : 0);
                }
            }
            case BOR -> {
                for (int i = 0; i < n; i++) {
                    int x = a.getInt(ai + i * 4);
                    int y = b.getInt(bi + i * 4);
                    b.putInt(bi + i * 4, (x | y));
                }
            }
            case LXOR -> {
                for (int i = 0; i < n; i++) {
                    int x = a.getInt(ai + i * 4);
                    int y = b.getInt(bi + i * 4);
                    b.putInt(bi + i * 4, (x != 0) != (y != 0) ? 1 : 0);
                }
            }
            case BXOR -> {
                for (int i = 0; i < n; i++) {
                    int x = a.getInt(ai + i * 4);
                    int y = b.getInt(bi + i * 4);
                    b.putInt(bi + i * 4, (x ^ y));
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
    }

    /** The integer operations on long values (signed, wrapping); logical ones give 1 or 0. */
    static void longs(Op.Kind op, ByteBuffer a, int ai, ByteBuffer b, int bi, int n) {
        if (ArrayKernels.runs(op, n)) {
            ArrayKernels.longs(op, a, ai, b, bi, b, bi, n);
            return;
        }
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    long x = a.getLong(ai + i * 8);
                    long y = b.getLong(bi + i * 8);
                    b.putLong(bi + i * 8, x > y ? x : y);
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    long x = a.getLong(ai + i * 8);
                    long y = b.getLong(bi + i * 8);
                    b.putLong(bi + i * 8, x < y ? x : y);
                }
            }
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    long x = a.getLong(ai + i * 8);
                    long y = b.getLong(bi + i * 8);
                    b.putLong(bi + i * 8, (x + y));
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    long x = a.getLong(ai + i * 8);
                    long y = b.getLong(bi + i * 8);
                    b.putLong(bi + i * 8, (x * y));
                }
            }
            case LAND -> {
                for (int i = 0; i < n; i++) {
                    long x = a.getLong(ai + i * 8);
                    long y = b.getLong(bi + i * 8);
                    b.putLong(bi + i * 8, x != 0 && y != 0 ? 1L : 0L);
                }
            }
            case BAND -> {
                for (int i = 0; i < n; i++) {
                    long x = a.getLong(ai + i * 8);
                    long y = b.getLong(bi + i * 8);
                    b.putLong(bi + i * 8, (x & y));
                }
            }
            case LOR -> {
                for (int i = 0; i < n; i++) {
                    long x = a.getLong(ai + i * 8);
                    long y = b.getLong(bi + i * 8);
                    b.putLong(bi + i * 8, x != 0 || y != 0 ? 1L : 0L);
                }
            }
            case BOR -> {
                for (int i = 0; i < n; i++) {
                    long x = a.getLong(ai + i * 8);
                    long y = b.getLong(bi + i * 8);
                    b.putLong(bi + i * 8, (x | y));
                }
            }
            case LXOR -> {
                for (int i = 0; i < n; i++) {
                    long x = a.getLong(ai + i * 8);
                    long y = b.getLong(bi + i * 8);
                    b.putLong(bi + i * 8, (x != 0) != (y != 0) ? 1L : 0L);
                }
            }
            case BXOR -> {
                for (int i = 0; i < n; i++) {
                    long x = a.getLong(ai + i * 8);
                    long y = b.getLong(bi + i * 8);
                    b.putLong(bi + i * 8, (x ^ y));
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
    }

    /** The arithmetic operations on float values (IEEE 754; MAX and MIN propagate NaN). */
    static void floats(Op.Kind op, ByteBuffer a, int ai, ByteBuffer b, int bi, int n) {
        if (ArrayKernels.runs(op, n)) {
            ArrayKernels.floats(op, a, ai, b, bi, b, bi, n);
            return;
        }
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    float x = a.getFloat(ai + i * 4);
                    float y = b.getFloat(bi + i * 4);
                    b.putFloat(bi + i * 4, Math.max(x, y));
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    float x = a.getFloat(ai + i * 4);
                    float y = b.getFloat(bi + i * 4);
                    b.putFloat(bi + i * 4, Math.min(x, y));
                }
            }
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    float x = a.getFloat(ai + i * 4);
                    float y = b.getFloat(bi + i * 4);
                    b.putFloat(bi + i * 4, x + y);
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    float x = a.getFloat(ai + i * 4);
                    float y = b.getFloat(bi + i * 4);
                    b.putFloat(bi + i * 4, x * y);
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
    }

    /** The arithmetic operations on double values (IEEE 754; MAX and MIN propagate NaN). */
    static void doubles(Op.Kind op, ByteBuffer a, int ai, ByteBuffer b, int bi, int n) {
        if (ArrayKernels.runs(op, n)) {
            ArrayKernels.doubles(op, a, ai, b, bi, b, bi, n);
            return;
        }
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    double x = a.getDouble(ai + i * 8);
                    double y = b.getDouble(bi + i * 8);
                    b.putDouble(bi + i * 8, Math.max(x, y));
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    double x = a.getDouble(ai + i * 8);
                    double y = b.getDouble(bi + i * 8);
                    b.putDouble(bi + i * 8, Math.min(x, y));
                }
            }
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    double x = a.getDouble(ai + i * 8);
                    double y = b.getDouble(bi + i * 8);
                    b.putDouble(bi + i * 8, x + y);
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    double x = a.getDouble(ai + i * 8);
                    double y = b.getDouble(bi + i * 8);
                    b.putDouble(bi + i * 8, x * y);
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
    }

    /** MAXLOC ({@code max}) or MINLOC on (value, index) pairs of short: ties keep the lower index. */
    static void shortPairs(boolean max, ByteBuffer a, int ai, ByteBuffer b, int bi, int n) {
        for (int i = 0; i < n; i++) {
            int ao = ai + i * 4;
            int bo = bi + i * 4;
            short x = a.getShort(ao);
            short y = b.getShort(bo);
            if (max ? x > y : x < y) {
                b.putShort(bo, x);
                b.putShort(bo + 2, a.getShort(ao + 2));
            } else if (x == y) {
                b.putShort(bo + 2, (short) Math.min(a.getShort(ao + 2), b.getShort(bo + 2)));
            }
        }
    }

    /** MAXLOC ({@code max}) or MINLOC on (value, index) pairs of int: ties keep the lower index. */
    static void intPairs(boolean max, ByteBuffer a, int ai, ByteBuffer b, int bi, int n) {
        for (int i = 0; i < n; i++) {
            int ao = ai + i * 8;
            int bo = bi + i * 8;
            int x = a.getInt(ao);
            int y = b.getInt(bo);
            if (max ? x > y : x < y) {
                b.putInt(bo, x);
                b.putInt(bo + 4, a.getInt(ao + 4));
            } else if (x == y) {
                b.putInt(bo + 4, Math.min(a.getInt(ao + 4), b.getInt(bo + 4)));
            }
        }
    }

    /** MAXLOC ({@code max}) or MINLOC on (value, index) pairs of long: ties keep the lower index. */
    static void longPairs(boolean max, ByteBuffer a, int ai, ByteBuffer b, int bi, int n) {
        for (int i = 0; i < n; i++) {
            int ao = ai + i * 16;
            int bo = bi + i * 16;
            long x = a.getLong(ao);
            long y = b.getLong(bo);
            if (max ? x > y : x < y) {
                b.putLong(bo, x);
                b.putLong(bo + 8, a.getLong(ao + 8));
            } else if (x == y) {
                b.putLong(bo + 8, Math.min(a.getLong(ao + 8), b.getLong(bo + 8)));
            }
        }
    }

    /** MAXLOC ({@code max}) or MINLOC on (value, index) pairs of float: ties keep the lower index. */
    static void floatPairs(boolean max, ByteBuffer a, int ai, ByteBuffer b, int bi, int n) {
        for (int i = 0; i < n; i++) {
            int ao = ai + i * 8;
            int bo = bi + i * 8;
            float x = a.getFloat(ao);
            float y = b.getFloat(bo);
            if (max ? x > y : x < y) {
                b.putFloat(bo, x);
                b.putFloat(bo + 4, a.getFloat(ao + 4));
            } else if (x == y) {
                b.putFloat(bo + 4, Math.min(a.getFloat(ao + 4), b.getFloat(bo + 4)));
            }
        }
    }

    /** MAXLOC ({@code max}) or MINLOC on (value, index) pairs of double: ties keep the lower index. */
    static void doublePairs(boolean max, ByteBuffer a, int ai, ByteBuffer b, int bi, int n) {
        for (int i = 0; i < n; i++) {
            int ao = ai + i * 16;
            int bo = bi + i * 16;
            double x = a.getDouble(ao);
            double y = b.getDouble(bo);
            if (max ? x > y : x < y) {
                b.putDouble(bo, x);
                b.putDouble(bo + 8, a.getDouble(ao + 8));
            } else if (x == y) {
                b.putDouble(bo + 8, Math.min(a.getDouble(ao + 8), b.getDouble(bo + 8)));
            }
        }
    }
}
