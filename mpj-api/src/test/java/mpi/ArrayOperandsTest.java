package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mpj.api.Reduction;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A reduction's operand and result in the user's arrays give, range by range, the bits the packed path gives
 * ({@link Reduction#applyInto} on packed vectors), at offsets other than 0, in lengths that are no multiple of the
 * kernels' chunk, and touch nothing outside the ranges named.
 */
class ArrayOperandsTest {
    private static final int N = 5003;
    private static final int OPERAND_AT = 3;
    private static final int RESULT_AT = 5;
    private static final Datatype[] TYPES = {MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE};
    private static final Op[] OPS = {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN};

    private static Object values(Datatype type, Random random, int n) {
        double[] d = random.doubles(n, -1e3, 1e3).toArray();
        d[n / 3] = Double.NaN;
        d[n / 2] = -0.0;
        Object a = Array.newInstance(type.element.arrayClass.getComponentType(), n);
        for (int i = 0; i < n; i++) {
            switch (type.element) {
                case INT -> Array.setInt(a, i, (int) (d[i] * 1e5));
                case LONG -> Array.setLong(a, i, (long) (d[i] * 1e12));
                case FLOAT -> Array.setFloat(a, i, (float) d[i]);
                default -> Array.setDouble(a, i, d[i]);
            }
        }
        return a;
    }

    /** {@code count} values of {@code array} from {@code index}, packed. */
    private static ByteBuffer packed(Datatype type, Object array, int index, int count) {
        return type.pack(array, index, count, false);
    }

    /** The packed bytes of {@code count} values placed at byte {@code at} of a larger buffer, as a transport holds them. */
    private static ByteBuffer lying(ByteBuffer bytes, int at) {
        ByteBuffer b = ByteBuffer.allocateDirect(at + bytes.remaining() + 16).order(ByteOrder.LITTLE_ENDIAN);
        b.put(at, bytes, bytes.position(), bytes.remaining());
        return b;
    }

    private static ArrayOperands operands(Op op, Datatype type, Object operand, Object result) {
        return new ArrayOperands(CollectiveScratch.ofThread()).of(op, type, operand, OPERAND_AT, result, RESULT_AT, N);
    }

    @Test
    void combiningRangesGivesThePackedPathsBitsAndWritesOnlyTheRange() {
        Random random = new Random(103);
        for (Datatype type : TYPES) {
            for (Op op : OPS) {
                int b = type.element.bytes;
                Object operand = values(type, random, N + 2 * OPERAND_AT);
                Object result = values(type, random, N + 2 * RESULT_AT);
                Object arriving = values(type, random, N);
                Reduction r = op.on(type, "test");
                // the range [from, to) of the vector, split off at an item that is no multiple of the chunk
                int from = 1001 * b;
                int to = N * b;
                int count = (to - from) / b;
                ByteBuffer in = packed(type, arriving, from / b, count);
                ByteBuffer withOperand = ByteBuffer.allocate(to - from).order(ByteOrder.LITTLE_ENDIAN);
                r.applyInto(in, packed(type, operand, OPERAND_AT + from / b, count), withOperand);
                ByteBuffer withResult = packed(type, result, RESULT_AT + from / b, count);
                r.apply(in, withResult);
                Object before = copy(result);
                Object operandBefore = copy(operand);
                String what = op + " on " + type;

                operands(op, type, operand, result).combine(lying(in, 40), 40, from, to - from, true);
                assertEquals(withOperand, packed(type, result, RESULT_AT + from / b, count), what + " with the operand");
                assertTrue(sameOutside(before, result, RESULT_AT + from / b, RESULT_AT + N), what + ": outside the range");
                assertTrue(same(operandBefore, operand), what + ": the operand is unchanged");

                Object again = copy(before);
                operands(op, type, operand, again).combine(lying(in, 8), 8, from, to - from, false);
                assertEquals(withResult, packed(type, again, RESULT_AT + from / b, count), what + " with the result");
            }
        }
    }

    @Test
    void anInPlaceCombineReadsEachOperandValueBeforeItsResultIsWritten() {
        Random random = new Random(7);
        for (Datatype type : TYPES) {
            Object vector = values(type, random, N + 2 * RESULT_AT);
            Object arriving = values(type, random, N);
            Reduction r = MPI.SUM.on(type, "test");
            ByteBuffer in = packed(type, arriving, 0, N);
            ByteBuffer expected = packed(type, vector, RESULT_AT, N);
            r.apply(in, expected);
            new ArrayOperands(CollectiveScratch.ofThread()).of(MPI.SUM, type, vector, RESULT_AT, vector, RESULT_AT, N)
                    .combine(lying(in, 4), 4, 0, N * type.element.bytes, true);
            assertEquals(expected, packed(type, vector, RESULT_AT, N), "in place on " + type);
        }
    }

    @Test
    void rangesPackAndLandAsTheDatatypePacks() {
        Random random = new Random(11);
        for (Datatype type : TYPES) {
            int b = type.element.bytes;
            Object operand = values(type, random, N + 2 * OPERAND_AT);
            Object result = values(type, random, N + 2 * RESULT_AT);
            ArrayOperands o = operands(MPI.SUM, type, operand, result);
            assertEquals(N * b, o.bytes());
            ByteBuffer dst = ByteBuffer.allocate(N * b + 10).order(ByteOrder.LITTLE_ENDIAN);
            o.packOperand(7 * b, 4007 * b, dst, 10);
            assertEquals(packed(type, operand, OPERAND_AT + 7, 4000), dst.slice(10, 4000 * b));
            o.packResult(0, N * b, dst, 0);
            assertEquals(packed(type, result, RESULT_AT, N), dst.slice(0, N * b));
            Object arriving = values(type, random, N);
            Object before = copy(result);
            o.land(lying(packed(type, arriving, 0, 2000), 12), 12, 3000 * b, 2000 * b);
            assertEquals(packed(type, arriving, 0, 2000), packed(type, result, RESULT_AT + 3000, 2000), "landed " + type);
            assertTrue(sameOutside(before, result, RESULT_AT + 3000, RESULT_AT + 5000), "landed " + type + " only there");
            ByteBuffer room = o.resultRoom();
            room.put(0, packed(type, arriving, 0, N), 0, N * b);
            o.landRoom();
            assertEquals(packed(type, arriving, 0, N), packed(type, result, RESULT_AT, N), "the whole room of " + type);
            assertEquals(packed(type, operand, OPERAND_AT, N), o.packedOperand(), "the whole operand of " + type);
        }
    }

    @Test
    void servesOneValueKernelTypesInTheirArraysUnderTheKernelsOperations() {
        assertTrue(ArrayOperands.serve(MPI.SUM, MPI.FLOAT, new float[1], new float[1]));
        assertTrue(ArrayOperands.serve(MPI.MAX, MPI.LONG, MPI.IN_PLACE, new long[1]));
        assertFalse(ArrayOperands.serve(MPI.BAND, MPI.LONG, new long[1], new long[1]), "an operation they do not run");
        assertFalse(ArrayOperands.serve(MPI.MAXLOC, MPI.INT2, new int[2], new int[2]), "pairs");
        assertFalse(ArrayOperands.serve(MPI.SUM, MPI.SHORT, new short[1], new short[1]), "a type they do not run");
        assertFalse(ArrayOperands.serve(MPI.SUM, MPI.INT, new int[1], ByteBuffer.allocateDirect(4)), "a ByteBuffer");
        assertFalse(ArrayOperands.serve(MPI.SUM, MPI.INT, new long[1], new int[1]), "a mismatched array");
        User_function none = new User_function() {
            @Override
            public void Call(Object in, int inOffset, Object inout, int inoutOffset, int count, Datatype type) {
            }
        };
        assertFalse(ArrayOperands.serve(new Op(none, true), MPI.INT, new int[1], new int[1]), "a user operation");
        assertFalse(ArrayOperands.serve(MPI.SUM, Datatype.Contiguous(2, MPI.INT), new int[2], new int[2]),
                "a derived type");
    }

    private static Object copy(Object array) {
        int n = Array.getLength(array);
        Object c = Array.newInstance(array.getClass().getComponentType(), n);
        System.arraycopy(array, 0, c, 0, n);
        return c;
    }

    /** Equal arrays, floating-point values bit for bit. */
    private static boolean same(Object a, Object b) {
        return Arrays.deepEquals(new Object[] {a}, new Object[] {b});
    }

    /** Whether the two arrays are equal outside elements {@code from} to {@code to}. */
    private static boolean sameOutside(Object a, Object b, int from, int to) {
        Object x = copy(a);
        Object y = copy(b);
        System.arraycopy(b, from, x, from, to - from);
        return same(x, y);
    }
}
