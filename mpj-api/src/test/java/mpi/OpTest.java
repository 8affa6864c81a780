package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mpj.api.Reduction;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.LongBinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The predefined reduction operations on every datatype where they are defined, against Java's own
 * arithmetic; where they are not, ERR_OP; and user operations, which see unpacked arrays.
 */
class OpTest {
    private static final long[] X = {0, 1, -1, 7, -128, 127, 300, Long.MIN_VALUE, Long.MAX_VALUE, 65535, -40000, 5};
    private static final long[] Y = {0, 0, 5, -7, -1, 127, -300, 1, -1, 1, 12345, 5};
    private static final Datatype[] INTEGERS = {MPI.BYTE, MPI.SHORT, MPI.CHAR, MPI.INT, MPI.LONG};

    /** {@code in op inout} through the packed path the collectives use; returns the new inout. */
    private static Object reduce(Op op, Datatype type, Object in, Object inout, int count) {
        Reduction r = op.on(type, "test");
        ByteBuffer a = type.pack(in, 0, count, false);
        ByteBuffer b = type.pack(inout, 0, count, false);
        r.apply(a, b);
        Landing result = Landing.of(type, inout, 0, count);
        result.room().duplicate().put(b);
        result.finish();
        return inout;
    }

    /** The values narrowed to the datatype's Java array. */
    private static Object array(Datatype type, long[] values) {
        int n = values.length;
        switch (type.element) {
            case BYTE: { byte[] a = new byte[n]; for (int i = 0; i < n; i++) { a[i] = (byte) values[i]; } return a; }
            case SHORT: { short[] a = new short[n]; for (int i = 0; i < n; i++) { a[i] = (short) values[i]; } return a; }
            case CHAR: { char[] a = new char[n]; for (int i = 0; i < n; i++) { a[i] = (char) values[i]; } return a; }
            case INT: { int[] a = new int[n]; for (int i = 0; i < n; i++) { a[i] = (int) values[i]; } return a; }
            default: return values.clone();
        }
    }

    /** The array's values widened back (CHAR unsigned). */
    private static long[] values(Object array) {
        int n = java.lang.reflect.Array.getLength(array);
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            Object e = java.lang.reflect.Array.get(array, i);
            v[i] = e instanceof Character c ? c : ((Number) e).longValue();
        }
        return v;
    }

    private static void assertIntegerOp(Op op, LongBinaryOperator expected) {
        for (Datatype type : INTEGERS) {
            long[] x = values(array(type, X));
            long[] y = values(array(type, Y));
            long[] want = new long[x.length];
            for (int i = 0; i < x.length; i++) {
                want[i] = expected.applyAsLong(x[i], y[i]);
            }
            long[] got = values(reduce(op, type, array(type, x), array(type, y), x.length));
            assertArrayEquals(values(array(type, want)), got, op + " on " + type);
        }
    }

    private static long truth(boolean b) {
        return b ? 1 : 0;
    }

    @Test
    void arithmeticOnIntegerTypesWrapsLikeJava() {
        assertIntegerOp(MPI.SUM, Long::sum);
        assertIntegerOp(MPI.PROD, (x, y) -> x * y);
    }

    @Test
    void maxAndMinCompareSignedIntegersAndCharAsUnsigned() {
        assertIntegerOp(MPI.MAX, Math::max);
        assertIntegerOp(MPI.MIN, Math::min);
        char[] c = (char[]) reduce(MPI.MAX, MPI.CHAR, new char[] {0xFFFF}, new char[] {1}, 1);
        assertEquals(0xFFFF, c[0]);
    }

    @Test
    void bitwiseOperationsOnIntegerTypes() {
        assertIntegerOp(MPI.BAND, (x, y) -> x & y);
        assertIntegerOp(MPI.BOR, (x, y) -> x | y);
        assertIntegerOp(MPI.BXOR, (x, y) -> x ^ y);
    }

    @Test
    void logicalOperationsOnIntegerTypesGiveOneOrZero() {
        assertIntegerOp(MPI.LAND, (x, y) -> truth(x != 0 && y != 0));
        assertIntegerOp(MPI.LOR, (x, y) -> truth(x != 0 || y != 0));
        assertIntegerOp(MPI.LXOR, (x, y) -> truth((x != 0) != (y != 0)));
    }

    @Test
    void logicalOperationsOnBooleans() {
        boolean[] x = {false, false, true, true};
        boolean[] y = {false, true, false, true};
        assertArrayEquals(new boolean[] {false, false, false, true},
                (boolean[]) reduce(MPI.LAND, MPI.BOOLEAN, x, y.clone(), 4));
        assertArrayEquals(new boolean[] {false, true, true, true},
                (boolean[]) reduce(MPI.LOR, MPI.BOOLEAN, x, y.clone(), 4));
        assertArrayEquals(new boolean[] {false, true, true, false},
                (boolean[]) reduce(MPI.LXOR, MPI.BOOLEAN, x, y.clone(), 4));
    }

    @Test
    void arithmeticOnFloatingPointTypes() {
        double[] x = {1.5, -2, 1e300, 0};
        double[] y = {2.25, 3, 1e300, -0.5};
        assertArrayEquals(new double[] {3.75, 1, 2e300, -0.5}, (double[]) reduce(MPI.SUM, MPI.DOUBLE, x, y.clone(), 4));
        assertArrayEquals(new double[] {3.375, -6, Double.POSITIVE_INFINITY, -0.0},
                (double[]) reduce(MPI.PROD, MPI.DOUBLE, x, y.clone(), 4));
        assertArrayEquals(new float[] {2.25f, 3, 1, 0}, (float[]) reduce(MPI.MAX, MPI.FLOAT,
                new float[] {1.5f, -2, 1, 0}, new float[] {2.25f, 3, -1, -0.5f}, 4));
        assertArrayEquals(new float[] {1.5f, -2, -1, -0.5f}, (float[]) reduce(MPI.MIN, MPI.FLOAT,
                new float[] {1.5f, -2, 1, 0}, new float[] {2.25f, 3, -1, -0.5f}, 4));
    }

    /** Long vectors run through the array kernels; each value must come out as the short vectors' loops give it. */
    @Test
    void longVectorsGiveTheSameValuesAsShortOnes() {
        int n = 5000; // more than one chunk of every type, and not a whole number of them
        java.util.Random random = new java.util.Random(25);
        double[] specials = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.MIN_VALUE, -1e308};
        double[] dx = new double[n];
        double[] dy = new double[n];
        long[] lx = new long[n];
        long[] ly = new long[n];
        for (int i = 0; i < n; i++) {
            dx[i] = i % 97 == 0 ? specials[i % specials.length] : random.nextGaussian() * 1e6;
            dy[i] = i % 89 == 0 ? specials[(i / 89) % specials.length] : random.nextGaussian() * 1e6;
            lx[i] = i % 101 == 0 ? Long.MAX_VALUE : random.nextLong();
            ly[i] = i % 103 == 0 ? Long.MIN_VALUE : random.nextLong();
        }
        for (Op op : new Op[] {MPI.MAX, MPI.MIN, MPI.SUM, MPI.PROD}) {
            assertArrayEquals((double[]) elementWise(op, dx, dy, MPI.DOUBLE), (double[]) reduce(op, MPI.DOUBLE, dx, dy.clone(), n),
                    op + " on DOUBLE");
            float[] fx = floats(dx);
            float[] fy = floats(dy);
            int[] ix = ints(lx);
            int[] iy = ints(ly);
            assertArrayEquals((float[]) elementWise(op, fx, fy, MPI.FLOAT), (float[]) reduce(op, MPI.FLOAT, fx, fy, n),
                    op + " on FLOAT");
            assertArrayEquals((int[]) elementWise(op, ix, iy, MPI.INT), (int[]) reduce(op, MPI.INT, ix, iy, n),
                    op + " on INT");
            assertArrayEquals((long[]) elementWise(op, lx, ly, MPI.LONG), (long[]) reduce(op, MPI.LONG, lx, ly.clone(), n),
                    op + " on LONG");
        }
    }

    /**
     * {@code out = in op right} into a third buffer, short vectors and long ones (the array kernels) alike, gives
     * what the one-value loops give and leaves the right operand as it was; with {@code out} the right operand it
     * is the in-place form.
     */
    @Test
    void applyIntoAThirdBufferGivesTheSameValuesAndKeepsTheRightOperand() {
        java.util.Random random = new java.util.Random(90);
        for (int n : new int[] {5, ArrayKernels.MIN_VALUES - 1, ArrayKernels.MIN_VALUES, 5000}) {
            double[] dx = random.doubles(n, -1e6, 1e6).toArray();
            double[] dy = random.doubles(n, -1e6, 1e6).toArray();
            dx[n / 2] = Double.NaN;
            long[] lx = random.longs(n).toArray();
            long[] ly = random.longs(n).toArray();
            float[] fx = floats(dx);
            float[] fy = floats(dy);
            int[] ix = ints(lx);
            int[] iy = ints(ly);
            Object[][] operands = {{dx, dy, MPI.DOUBLE}, {fx, fy, MPI.FLOAT}, {lx, ly, MPI.LONG}, {ix, iy, MPI.INT},
                {X, Y, MPI.SHORT}};
            for (Op op : new Op[] {MPI.MAX, MPI.MIN, MPI.SUM, MPI.PROD, MPI.BXOR}) {
                for (Object[] o : operands) {
                    Datatype type = (Datatype) o[2];
                    Object x = type == MPI.SHORT ? array(type, X) : o[0];
                    Object y = type == MPI.SHORT ? array(type, Y) : o[1];
                    int count = java.lang.reflect.Array.getLength(x);
                    if (op == MPI.BXOR && (type == MPI.DOUBLE || type == MPI.FLOAT)) {
                        continue;
                    }
                    Object expected = elementWise(op, x, y, type);
                    Reduction r = op.on(type, "test");
                    ByteBuffer in = type.pack(x, 0, count, false);
                    ByteBuffer right = type.pack(y, 0, count, false);
                    ByteBuffer before = type.pack(y, 0, count, false);
                    int bytes = right.remaining();
                    // out starts past a few bytes of its array, so offsets are honoured
                    ByteBuffer out = ByteBuffer.allocate(bytes + 24).order(right.order()).position(16).slice()
                            .limit(bytes);
                    r.applyInto(in, right, out);
                    String what = op + " on " + type + ", " + count + " values";
                    assertEquals(before, right, what + ": the right operand");
                    assertTrue(sameValues(expected, unpacked(type, out, count)), what + " into a third buffer");
                    r.applyInto(in, right, right);
                    assertTrue(sameValues(expected, unpacked(type, right, count)), what + " in place");
                }
            }
        }
    }

    /** Equal arrays of one primitive type, floating-point values compared bit for bit (NaN equals NaN). */
    private static boolean sameValues(Object expected, Object actual) {
        return java.util.Arrays.deepEquals(new Object[] {expected}, new Object[] {actual});
    }

    private static Object unpacked(Datatype type, ByteBuffer packed, int count) {
        Object array = java.lang.reflect.Array.newInstance(type.element.arrayClass.getComponentType(), count);
        Landing result = Landing.of(type, array, 0, count);
        result.room().duplicate().put(packed.duplicate());
        result.finish();
        return array;
    }

    /** {@code x op y} one value at a time, through the kernels' short-vector loops. */
    private static Object elementWise(Op op, Object x, Object y, Datatype type) {
        int n = java.lang.reflect.Array.getLength(x);
        Object result = java.lang.reflect.Array.newInstance(x.getClass().getComponentType(), n);
        Object a = java.lang.reflect.Array.newInstance(x.getClass().getComponentType(), 1);
        Object b = java.lang.reflect.Array.newInstance(x.getClass().getComponentType(), 1);
        for (int i = 0; i < n; i++) {
            java.lang.reflect.Array.set(a, 0, java.lang.reflect.Array.get(x, i));
            java.lang.reflect.Array.set(b, 0, java.lang.reflect.Array.get(y, i));
            java.lang.reflect.Array.set(result, i, java.lang.reflect.Array.get(reduce(op, type, a, b, 1), 0));
        }
        return result;
    }

    @Test
    void maxlocAndMinlocKeepTheExtremeValueAndOnTiesTheLowerIndex() {
        int[] x = {5, 0, 3, 9, 7, 2};
        int[] y = {4, 1, 3, 4, 7, 8};
        assertArrayEquals(new int[] {5, 0, 3, 4, 7, 2}, (int[]) reduce(MPI.MAXLOC, MPI.INT2, x, y.clone(), 3));
        assertArrayEquals(new int[] {4, 1, 3, 4, 7, 2}, (int[]) reduce(MPI.MINLOC, MPI.INT2, x, y.clone(), 3));
        assertArrayEquals(new double[] {2.5, 3}, (double[]) reduce(MPI.MAXLOC, MPI.DOUBLE2,
                new double[] {2.5, 7}, new double[] {2.5, 3}, 1));
        assertArrayEquals(new short[] {-1, 9}, (short[]) reduce(MPI.MINLOC, MPI.SHORT2,
                new short[] {-1, 9}, new short[] {4, 2}, 1));
        assertArrayEquals(new long[] {8, 0}, (long[]) reduce(MPI.MAXLOC, MPI.LONG2,
                new long[] {8, 1}, new long[] {8, 0}, 1));
        assertArrayEquals(new float[] {1, 1}, (float[]) reduce(MPI.MINLOC, MPI.FLOAT2,
                new float[] {1, 1}, new float[] {2, 0}, 1));
    }

    @Test
    void anOperationUndefinedForTheDatatypeIsErrOpNamingBoth() {
        assertOpError(MPI.BAND, MPI.DOUBLE);
        assertOpError(MPI.LAND, MPI.FLOAT);
        assertOpError(MPI.MAXLOC, MPI.INT);
        assertOpError(MPI.SUM, MPI.INT2);
        assertOpError(MPI.SUM, MPI.BOOLEAN);
    }

    private static void assertOpError(Op op, Datatype type) {
        MPIException e = MpiTestSupport.assertMpiError(MPI.ERR_OP, () -> op.on(type, "Allreduce"));
        assertTrue(e.getMessage().contains(op.toString()) && e.getMessage().contains(type.toString()), e.getMessage());
    }

    @Test
    void objectsCannotBeReduced() {
        MpiTestSupport.assertMpiError(MPI.ERR_TYPE, () -> MPI.SUM.on(MPI.OBJECT, "Reduce"));
    }

    @Test
    void aUserFunctionSeesArraysOfTheDatatypeAndItsCommutativityIsKept() {
        User_function concatDigits = new User_function() {
            @Override
            public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
                int[] in = (int[]) invec;
                int[] inout = (int[]) inoutvec;
                for (int i = 0; i < count; i++) {
                    inout[inoutoffset + i] = in[inoffset + i] * 10 + inout[inoutoffset + i];
                }
            }
        };
        Op op = new Op(concatDigits, false);
        assertFalse(op.Is_commute());
        assertFalse(op.on(MPI.INT, "test").isCommutative());
        assertTrue(MPI.SUM.Is_commute());
        assertArrayEquals(new int[] {12, 34}, (int[]) reduce(op, MPI.INT, new int[] {1, 3}, new int[] {2, 4}, 2));
    }

    @Test
    void predefinedKernelsReadBigEndianViewsAsLittleEndianData() {
        ByteBuffer a = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 3).putInt(4, 1 << 20);
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 4).putInt(4, 1);
        MPI.SUM.on(MPI.INT, "test").apply(a.slice(), b.slice());
        assertEquals(7, b.getInt(0));
        assertEquals((1 << 20) + 1, b.getInt(4));
    }

    @Test
    void theMpiNamesOfThePairTypesAreTheMpiJavaTypesAndTakeMaxlocAndMinloc() {
        assertSame(MPI.DOUBLE2, MPI.DOUBLE_INT);
        assertSame(MPI.FLOAT2, MPI.FLOAT_INT);
        assertSame(MPI.LONG2, MPI.LONG_INT);
        assertSame(MPI.SHORT2, MPI.SHORT_INT);

        double[] max = (double[]) reduce(MPI.MAXLOC, MPI.DOUBLE_INT, new double[] {4.5, 1}, new double[] {2.5, 0}, 1);
        long[] min = (long[]) reduce(MPI.MINLOC, MPI.LONG_INT, new long[] {-3, 2}, new long[] {-3, 1}, 1);

        assertArrayEquals(new double[] {4.5, 1}, max);
        assertArrayEquals(new long[] {-3, 1}, min);
    }

    @Test
    void aPredefinedOperationCannotBeFreedAUserOneCan() {
        Op user = new Op(new User_function() {
            @Override
            public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            }
        }, true);

        for (Op predefined : new Op[] {MPI.SUM, MPI.MAXLOC, MPI.BXOR}) {
            MpiTestSupport.assertMpiError(MPI.ERR_ARG, predefined::free);
        }
        org.junit.jupiter.api.Assertions.assertDoesNotThrow(user::free);
    }

    private static float[] floats(double[] values) {
        float[] narrowed = new float[values.length];
        for (int i = 0; i < values.length; i++) {
            narrowed[i] = (float) values[i];
        }
        return narrowed;
    }

    private static int[] ints(long[] values) {
        int[] narrowed = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            narrowed[i] = (int) values[i];
        }
        return narrowed;
    }
}
