package mpi;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Copies of short runs (value by value) and long runs (through a typed view) agree on bytes and positions. */
class ElementTypeTest {
    @ParameterizedTest
    @EnumSource(ElementType.class)
    void lengthIsTheLengthOfAnArrayOfTheType(ElementType type) {
        for (int n : new int[] {0, 1, 7}) {
            assertEquals(n, type.length(Array.newInstance(type.arrayClass.getComponentType(), n)), type + " of " + n);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, ElementType.SCALAR_RUN, ElementType.SCALAR_RUN + 1, 3 * ElementType.SCALAR_RUN})
    void longsAreWrittenLittleEndianAfterThePositionAndReadBack(int n) {
        long[] values = new long[n + 2];
        for (int i = 0; i < values.length; i++) {
            values[i] = 0x0102030405060708L * (i + 1);
        }
        ByteBuffer out = ByteBuffer.allocate(3 + n * 8).order(ByteOrder.LITTLE_ENDIAN);
        out.position(3);
        ElementType.LONG.write(out, values, 1, n);
        assertEquals(3 + n * 8, out.position());
        for (int i = 0; i < n; i++) {
            assertEquals(values[1 + i], out.getLong(3 + i * 8), "value " + i);
        }
        long[] back = new long[n + 2];
        ByteBuffer in = out.flip().position(3);
        ElementType.LONG.read(in, back, 1, n);
        assertEquals(3 + n * 8, in.position());
        long[] expected = values.clone();
        expected[0] = 0;
        expected[n + 1] = 0;
        assertArrayEquals(expected, back);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, ElementType.SCALAR_RUN, ElementType.SCALAR_RUN + 1})
    void intsFloatsAndDoublesRoundTripAtEveryRunLength(int n) {
        int[] ints = new int[n];
        float[] floats = new float[n];
        double[] doubles = new double[n];
        for (int i = 0; i < n; i++) {
            ints[i] = -7 * i - 1;
            floats[i] = 1.5f * i;
            doubles[i] = -2.25 * i;
        }
        ByteBuffer b = ByteBuffer.allocate(n * 16).order(ByteOrder.LITTLE_ENDIAN);
        ElementType.INT.write(b, ints, 0, n);
        ElementType.FLOAT.write(b, floats, 0, n);
        ElementType.DOUBLE.write(b, doubles, 0, n);
        assertEquals(n * 16, b.position());
        assertEquals(ints[n - 1], b.getInt((n - 1) * 4));
        assertEquals(doubles[n - 1], b.getDouble(n * 8 + (n - 1) * 8));
        b.flip();
        int[] ints2 = new int[n];
        float[] floats2 = new float[n];
        double[] doubles2 = new double[n];
        ElementType.INT.read(b, ints2, 0, n);
        ElementType.FLOAT.read(b, floats2, 0, n);
        ElementType.DOUBLE.read(b, doubles2, 0, n);
        assertEquals(n * 16, b.position());
        assertArrayEquals(ints, ints2);
        assertArrayEquals(floats, floats2);
        assertArrayEquals(doubles, doubles2);
    }
}
