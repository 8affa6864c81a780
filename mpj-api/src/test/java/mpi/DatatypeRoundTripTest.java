package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DatatypeRoundTripTest extends MpiTestSupport {
    @BeforeEach
    void startTwoRanks() {
        start(2, 0);
    }

    /** Each datatype with an array of 6 elements (3 pairs for the pair types) of distinct values. */
    static Stream<Arguments> typedArrays() {
        return Stream.of(
                Arguments.of(MPI.BYTE, new byte[] {1, -2, 3, 127, -128, 6}),
                Arguments.of(MPI.PACKED, new byte[] {9, 8, 7, 6, 5, 4}),
                Arguments.of(MPI.CHAR, new char[] {'a', 'Z', '\u00e9', '\u4e2d', '0', '\uffff'}),
                Arguments.of(MPI.SHORT, new short[] {1, -1, Short.MAX_VALUE, Short.MIN_VALUE, 300, -300}),
                Arguments.of(MPI.BOOLEAN, new boolean[] {true, false, true, true, false, true}),
                Arguments.of(MPI.INT, new int[] {1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x01020304, 42}),
                Arguments.of(MPI.LONG, new long[] {1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 0x0102030405060708L, 42}),
                Arguments.of(MPI.FLOAT, new float[] {1.5f, -0f, Float.NaN, Float.MAX_VALUE, Float.MIN_VALUE, 3}),
                Arguments.of(MPI.DOUBLE, new double[] {1.5, -0.0, Double.NaN, Double.MAX_VALUE, Math.PI, 3}),
                Arguments.of(MPI.SHORT2, new short[] {1, 0, 2, 1, 3, 2}),
                Arguments.of(MPI.INT2, new int[] {10, 0, 20, 1, 30, 2}),
                Arguments.of(MPI.LONG2, new long[] {10, 0, 20, 1, 30, 2}),
                Arguments.of(MPI.FLOAT2, new float[] {1.5f, 0, 2.5f, 1, 3.5f, 2}),
                Arguments.of(MPI.DOUBLE2, new double[] {1.5, 0, 2.5, 1, 3.5, 2}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("typedArrays")
    void everyArrayTypeArrivesIntact(Datatype type, Object values) {
        int items = 6 / type.Size();
        Object received = Array.newInstance(values.getClass().getComponentType(), 6);

        MPI.COMM_WORLD.Send(values, 0, items, type, 0, 7);
        Status status = MPI.COMM_WORLD.Recv(received, 0, items, type, 0, 7);

        assertArraysEqual(values, received);
        assertEquals(items, status.Get_count(type));
        assertEquals(6, status.Get_elements(type));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("typedArrays")
    void offsetsIndexTheArraysOnBothSides(Datatype type, Object values) {
        int elements = type.Size();
        Object received = Array.newInstance(values.getClass().getComponentType(), 6);

        // one item taken from just after the first item, landing in the last item's place
        MPI.COMM_WORLD.Send(values, elements, 1, type, 0, 1);
        MPI.COMM_WORLD.Recv(received, 6 - elements, 1, type, 0, 1);

        for (int i = 0; i < elements; i++) {
            assertEquals(Array.get(values, elements + i), Array.get(received, 6 - elements + i));
        }
        assertEquals(Array.get(Array.newInstance(values.getClass().getComponentType(), 1), 0), Array.get(received, 0),
                "elements outside the received range are untouched");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("typedArrays")
    void directByteBuffersCarryTheSameLittleEndianBytesAsArrays(Datatype type, Object values) {
        int items = 6 / type.Size();
        int elementBytes = type.element.bytes;
        ByteBuffer direct = ByteBuffer.allocateDirect((6 + 2 * type.Size()) * elementBytes);

        // array -> direct buffer at offset of one item
        MPI.COMM_WORLD.Send(values, 0, items, type, 0, 3);
        MPI.COMM_WORLD.Recv(direct, type.Size(), items, type, 0, 3);
        // direct buffer at that offset -> array
        Object back = Array.newInstance(values.getClass().getComponentType(), 6);
        MPI.COMM_WORLD.Send(direct, type.Size(), items, type, 0, 4);
        MPI.COMM_WORLD.Recv(back, 0, items, type, 0, 4);

        assertArraysEqual(values, back);
        assertEquals(0, direct.position(), "the buffer's position is left alone");
        assertEquals(direct.capacity(), direct.limit(), "the buffer's limit is left alone");
        for (int i = 0; i < type.Size() * elementBytes; i++) {
            assertEquals(0, direct.get(i), "bytes before the offset are untouched");
        }
    }

    @Test
    void multiByteValuesGoOnTheWireLittleEndian() {
        MPI.COMM_WORLD.Send(new int[] {0x01020304}, 0, 1, MPI.INT, 1, 0);

        assertArrayEquals(new byte[] {4, 3, 2, 1}, backend.takeSent(1).data());
    }

    @Test
    void booleansTravelAsOneByteEach() {
        MPI.COMM_WORLD.Send(new boolean[] {true, false, true}, 0, 3, MPI.BOOLEAN, 1, 0);

        assertArrayEquals(new byte[] {1, 0, 1}, backend.takeSent(1).data());
    }

    @Test
    void aByteArrayIsReceivedInPlace() {
        byte[] buffer = new byte[8];
        Request receive = MPI.COMM_WORLD.Irecv(buffer, 2, 4, MPI.BYTE, 1, 0);

        backend.deliver(1, 0, WORLD, new byte[] {5, 6, 7});

        assertArrayEquals(new byte[] {0, 0, 5, 6, 7, 0, 0, 0}, buffer, "written before completion, without a copy");
        assertEquals(3, receive.Wait().Get_count(MPI.BYTE));
    }

    @Test
    void aDirectByteBufferIsReadThroughItsLittleEndianView() {
        ByteBuffer direct = ByteBuffer.allocateDirect(16).order(ByteOrder.LITTLE_ENDIAN);

        MPI.COMM_WORLD.Send(new long[] {-5, 123456789012L}, 0, 2, MPI.LONG, 0, 0);
        MPI.COMM_WORLD.Recv(direct, 0, 2, MPI.LONG, 0, 0);

        assertEquals(-5, direct.getLong(0));
        assertEquals(123456789012L, direct.getLong(8));
    }

    @Test
    void aShorterMessageFillsOnlyTheStartOfTheBuffer() {
        int[] received = {-1, -1, -1, -1};

        MPI.COMM_WORLD.Send(new int[] {8, 9}, 0, 2, MPI.INT, 0, 0);
        Status status = MPI.COMM_WORLD.Recv(received, 0, 4, MPI.INT, 0, 0);

        assertArrayEquals(new int[] {8, 9, -1, -1}, received);
        assertEquals(2, status.Get_count(MPI.INT));
    }

    @Test
    void aLongerMessageThanTheBufferRaisesTruncate() {
        MPI.COMM_WORLD.Send(new int[] {1, 2, 3}, 0, 3, MPI.INT, 0, 0);

        assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Recv(new int[2], 0, 2, MPI.INT, 0, 0));
    }

    record Point(int x, String label) implements Serializable {
    }

    @Test
    void objectsRoundTripThroughSerialisation() {
        Object[] sent = {"text", 42, new Point(3, "p"), null, new int[] {1, 2}};
        Object[] received = new Object[7];

        MPI.COMM_WORLD.Send(sent, 1, 4, MPI.OBJECT, 0, 0);
        Status status = MPI.COMM_WORLD.Recv(received, 2, 5, MPI.OBJECT, 0, 0);

        assertEquals(4, status.Get_count(MPI.OBJECT));
        assertNull(received[0]);
        assertNull(received[1]);
        assertEquals(42, received[2]);
        assertEquals(new Point(3, "p"), received[3]);
        assertNull(received[4]);
        assertArrayEquals(new int[] {1, 2}, (int[]) received[5]);
        assertNull(received[6]);
    }

    @Test
    void moreObjectsThanTheReceiveCountRaisesTruncate() {
        MPI.COMM_WORLD.Send(new Object[] {"a", "b", "c"}, 0, 3, MPI.OBJECT, 0, 0);

        MPIException e = assertMpiError(MPI.ERR_TRUNCATE,
                () -> MPI.COMM_WORLD.Recv(new Object[3], 0, 2, MPI.OBJECT, 0, 0));
        assertTrue(e.getMessage().contains("3 objects"), e.getMessage());
    }

    @Test
    void anUnserialisableObjectRaisesTypeError() {
        Object[] notSerializable = {new Object()};

        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(notSerializable, 0, 1, MPI.OBJECT, 0, 0));
    }

    @Test
    void pairTypesCountInPairsOverThePrimitiveArray() {
        MPI.COMM_WORLD.Send(new double[] {2.5, 0, 7.5, 1}, 0, 2, MPI.DOUBLE2, 0, 0);
        double[] received = new double[4];
        Status status = MPI.COMM_WORLD.Recv(received, 0, 2, MPI.DOUBLE2, 0, 0);

        assertArrayEquals(new double[] {2.5, 0, 7.5, 1}, received);
        assertEquals(2, status.Get_count(MPI.DOUBLE2));
        assertEquals(4, status.Get_count(MPI.DOUBLE));
    }

    @Test
    void sizesAndExtentsAreCountedInBufferElements() {
        assertEquals(1, MPI.INT.Size());
        assertEquals(1, MPI.DOUBLE.Extent());
        assertEquals(2, MPI.INT2.Size());
        assertEquals(2, MPI.LONG2.Extent());
        assertEquals(0, MPI.INT2.Lb());
        assertEquals(2, MPI.INT2.Ub());
        assertEquals(1, MPI.OBJECT.Size());
        assertEquals("MPI.DOUBLE", MPI.DOUBLE.toString());
    }

    private static void assertArraysEqual(Object expected, Object actual) {
        assertEquals(Array.getLength(expected), Array.getLength(actual));
        for (int i = 0; i < Array.getLength(expected); i++) {
            assertEquals(Array.get(expected, i), Array.get(actual, i), "element " + i);
        }
    }
}
