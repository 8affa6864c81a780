package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Derived datatypes in communication: each constructor's items travel as the values at the places
 * MPI defines, in type-map order, and land in the same places on receipt; counts, partial
 * messages, direct buffers and the errors of unusable types.
 */
class DerivedDatatypeTransferTest extends MpiTestSupport {
    @BeforeEach
    void startTwoRanks() {
        start(2, 0);
    }

    /** A double[] of {@code length} whose element i holds i + 0.5, so every value names its place. */
    private static double[] numbered(int length) {
        double[] values = new double[length];
        for (int i = 0; i < length; i++) {
            values[i] = i + 0.5;
        }
        return values;
    }

    private static double[] doublesOf(byte[] wire) {
        double[] values = new double[wire.length / 8];
        ByteBuffer.wrap(wire).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(values);
        return values;
    }

    /**
     * Sends {@code count} items of {@code type} from {@code offset} of a numbered array of
     * {@code length} to rank 1: the wire must carry the values at {@code indices}, in that order.
     * Then receives those bytes with the same arguments into a zeroed array: the values must land at
     * {@code indices} and nowhere else.
     */
    private void assertTravelsAs(Datatype type, int count, int offset, int length, int... indices) {
        double[] source = numbered(length);
        MPI.COMM_WORLD.Send(source, offset, count, type, 1, 5);
        byte[] wire = backend.takeSent(1).data();
        double[] expectedWire = Arrays.stream(indices).mapToDouble(i -> source[i]).toArray();
        assertArrayEquals(expectedWire, doublesOf(wire), "values on the wire, in type-map order");

        double[] received = new double[length];
        backend.deliver(1, 5, WORLD, wire);
        Status status = MPI.COMM_WORLD.Recv(received, offset, count, type, 1, 5);
        double[] expected = new double[length];
        for (int i : indices) {
            expected[i] = source[i];
        }
        assertArrayEquals(expected, received, "values land in their places, others untouched");
        assertEquals(count, status.Get_count(type));
        assertEquals(indices.length, status.Get_elements(type));
    }

    @Test
    void contiguousItemsFollowEachOther() {
        assertTravelsAs(committed(Datatype.Contiguous(3, MPI.DOUBLE)), 2, 1, 8, 1, 2, 3, 4, 5, 6);
    }

    @Test
    void vectorItemsAreBlocksStridedInsideAndExtentApart() {
        assertTravelsAs(committed(Datatype.Vector(3, 2, 5, MPI.DOUBLE)), 2, 1, 25,
                1, 2, 6, 7, 11, 12, 13, 14, 18, 19, 23, 24);
    }

    @Test
    void longBlocksTravelWholeAndShortOnesElementByElement() {
        int[] longBlocks = IntStream.concat(IntStream.range(3, 23), IntStream.range(28, 48)).toArray();
        assertTravelsAs(committed(Datatype.Vector(2, 20, 25, MPI.DOUBLE)), 1, 3, 50, longBlocks);
        int[] singles = IntStream.range(0, 20).map(i -> 3 + 2 * i).toArray();
        assertTravelsAs(committed(Datatype.Vector(20, 1, 2, MPI.DOUBLE)), 1, 3, 50, singles);
    }

    @Test
    void hvectorStridesCountBaseElements() {
        assertTravelsAs(committed(Datatype.Hvector(2, 1, 3, MPI.DOUBLE2)), 2, 2, 12, 2, 3, 5, 6, 7, 8, 10, 11);
    }

    @Test
    void indexedBlocksTravelInTheGivenOrder() {
        assertTravelsAs(committed(Datatype.Indexed(new int[] {2, 1}, new int[] {4, 0}, MPI.DOUBLE)), 2, 0, 12,
                4, 5, 0, 10, 11, 6);
    }

    @Test
    void hindexedDisplacementsCountBaseElements() {
        assertTravelsAs(committed(Datatype.Hindexed(new int[] {1, 1}, new int[] {3, 0}, MPI.DOUBLE2)), 2, 1, 12,
                4, 5, 1, 2, 9, 10, 6, 7);
    }

    @Test
    void structMarkersSpaceTheItems() {
        Datatype spaced = committed(Datatype.Struct(new int[] {1, 1, 1}, new int[] {-1, 0, 2},
                new Datatype[] {MPI.LB, MPI.DOUBLE, MPI.UB}));

        assertTravelsAs(spaced, 3, 1, 9, 1, 4, 7);
    }

    @Test
    void negativeStridesWalkTheBufferBackwards() {
        assertTravelsAs(committed(Datatype.Vector(3, 1, -2, MPI.DOUBLE)), 1, 4, 6, 4, 2, 0);
    }

    @Test
    void nestedTypesTravelInNestedOrder() {
        Datatype pairs = Datatype.Vector(2, 1, 2, MPI.DOUBLE);

        assertTravelsAs(committed(Datatype.Vector(2, 1, 3, pairs)), 1, 0, 12, 0, 2, 9, 11);
    }

    @Test
    void anItemMayBeReceivedAsItsElementsAndBack() {
        Datatype column = committed(Datatype.Vector(3, 1, 4, MPI.DOUBLE));
        double[] matrix = numbered(12);
        double[] packed = new double[3];

        MPI.COMM_WORLD.Sendrecv(matrix, 1, 1, column, 0, 1, packed, 0, 3, MPI.DOUBLE, 0, 1);
        double[] back = new double[12];
        MPI.COMM_WORLD.Sendrecv(packed, 0, 3, MPI.DOUBLE, 0, 2, back, 2, 1, column, 0, 2);

        assertArrayEquals(new double[] {1.5, 5.5, 9.5}, packed);
        assertArrayEquals(new double[] {0, 0, 1.5, 0, 0, 0, 5.5, 0, 0, 0, 9.5, 0}, back);
    }

    @Test
    void aPartialMessageFillsAPrefixOfThePlacesAndHasNoWholeCount() {
        Datatype type = committed(Datatype.Vector(3, 2, 5, MPI.DOUBLE));
        double[] received = new double[12];
        ByteBuffer five = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 1; i <= 5; i++) {
            five.putDouble(i);
        }

        backend.deliver(1, 0, WORLD, five.array());
        Status status = MPI.COMM_WORLD.Recv(received, 0, 1, type, 1, 0);

        assertArrayEquals(new double[] {1, 2, 0, 0, 0, 3, 4, 0, 0, 0, 5, 0}, received);
        assertEquals(MPI.UNDEFINED, status.Get_count(type));
        assertEquals(5, status.Get_elements(type));
    }

    @Test
    void directByteBuffersUseTheSamePlacesCountedInElements() {
        Datatype type = committed(Datatype.Vector(2, 1, 3, MPI.INT));
        ByteBuffer source = ByteBuffer.allocateDirect(40).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 10; i++) {
            source.putInt(i * 4, 100 + i);
        }

        MPI.COMM_WORLD.Send(source, 1, 2, type, 1, 0);
        byte[] wire = backend.takeSent(1).data();
        ByteBuffer target = ByteBuffer.allocateDirect(40).order(ByteOrder.LITTLE_ENDIAN);
        backend.deliver(1, 0, WORLD, wire);
        MPI.COMM_WORLD.Recv(target, 1, 2, type, 1, 0);

        int[] values = new int[wire.length / 4];
        ByteBuffer.wrap(wire).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(values);
        assertArrayEquals(new int[] {101, 104, 105, 108}, values);
        for (int i = 0; i < 10; i++) {
            int expected = i == 1 || i == 4 || i == 5 || i == 8 ? 100 + i : 0;
            assertEquals(expected, target.getInt(i * 4), "element " + i);
        }
        assertEquals(0, target.position(), "the buffer's position is left alone");
    }

    /** One array of 8 distinct values of each primitive. */
    static Stream<Arguments> primitiveArrays() {
        return Stream.of(
                Arguments.of(MPI.BYTE, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}),
                Arguments.of(MPI.CHAR, new char[] {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}),
                Arguments.of(MPI.SHORT, new short[] {1, 2, 3, 4, 5, 6, 7, 8}),
                Arguments.of(MPI.BOOLEAN, new boolean[] {true, false, false, true, true, true, false, true}),
                Arguments.of(MPI.INT, new int[] {1, 2, 3, 4, 5, 6, 7, 8}),
                Arguments.of(MPI.LONG, new long[] {1, 2, 3, 4, 5, 6, 7, 8}),
                Arguments.of(MPI.FLOAT, new float[] {1, 2, 3, 4, 5, 6, 7, 8}),
                Arguments.of(MPI.DOUBLE, new double[] {1, 2, 3, 4, 5, 6, 7, 8}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("primitiveArrays")
    void everyPrimitiveTravelsInAStridedType(Datatype base, Object values) {
        Datatype everyOther = committed(Datatype.Vector(3, 1, 2, base));
        Object received = Array.newInstance(values.getClass().getComponentType(), 8);

        MPI.COMM_WORLD.Sendrecv(values, 1, 1, everyOther, 0, 0, received, 1, 1, everyOther, 0, 0);

        Object untouched = Array.get(Array.newInstance(values.getClass().getComponentType(), 1), 0);
        for (int i = 0; i < 8; i++) {
            boolean inType = i == 1 || i == 3 || i == 5;
            assertEquals(inType ? Array.get(values, i) : untouched, Array.get(received, i), "element " + i);
        }
    }

    @Test
    void aContiguousByteTypeIsReceivedInPlace() {
        Datatype triple = committed(Datatype.Contiguous(3, MPI.BYTE));
        byte[] buffer = new byte[8];

        Request receive = MPI.COMM_WORLD.Irecv(buffer, 1, 2, triple, 1, 0);
        backend.deliver(1, 0, WORLD, new byte[] {1, 2, 3, 4, 5, 6});

        assertArrayEquals(new byte[] {0, 1, 2, 3, 4, 5, 6, 0}, buffer, "written before completion, without a copy");
        assertEquals(2, receive.Wait().Get_count(triple));
    }

    @Test
    void sendrecvReplaceSendsTheOldStridedValuesAndReceivesNewOnesInTheirPlaces() {
        Datatype type = committed(Datatype.Vector(2, 1, 2, MPI.DOUBLE));
        double[] buffer = {1, 2, 3, 4};
        ByteBuffer incoming = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putDouble(7).putDouble(9);
        backend.deliver(1, 0, WORLD, incoming.array());

        MPI.COMM_WORLD.Sendrecv_replace(buffer, 0, 1, type, 1, 0, 1, 0);

        assertArrayEquals(new double[] {1, 3}, doublesOf(backend.takeSent(1).data()));
        assertArrayEquals(new double[] {7, 2, 9, 4}, buffer);
    }

    @Test
    void anUncommittedTypeCannotDescribeABuffer() {
        Datatype type = Datatype.Vector(2, 1, 2, MPI.DOUBLE);

        MPIException send = assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new double[4], 0, 1, type, 1, 0));
        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Irecv(new double[4], 0, 1, type, 1, 0));

        assertEquals(true, send.getMessage().contains("Commit"), send.getMessage());
    }

    @Test
    void aFreedTypeCannotDescribeABuffer() {
        Datatype type = committed(Datatype.Vector(2, 1, 2, MPI.DOUBLE));

        type.free();

        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new double[4], 0, 1, type, 1, 0));
    }

    @Test
    void aTypeReachingPastTheEndOfTheBufferIsABufferError() {
        Datatype type = committed(Datatype.Vector(3, 2, 5, MPI.DOUBLE));

        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(new double[11], 0, 1, type, 1, 0));
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Recv(new double[23], 0, 2, type, 1, 0));
    }

    @Test
    void aTypeReachingBeforeTheStartOfTheBufferIsABufferError() {
        Datatype downwards = committed(Datatype.Vector(3, 1, -2, MPI.DOUBLE));

        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(new double[8], 3, 1, downwards, 1, 0));
    }

    @Test
    void aTypeWhoseDataLieAboveItsBoundsIsCheckedAgainstItsData() {
        Datatype narrow = committed(Datatype.Struct(new int[] {1, 4, 1}, new int[] {0, 0, 1},
                new Datatype[] {MPI.LB, MPI.DOUBLE, MPI.UB}));

        assertEquals(1, narrow.Extent());
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(new double[5], 0, 3, narrow, 1, 0));
        MPI.COMM_WORLD.Send(new double[6], 0, 3, narrow, 1, 0);
        assertEquals(96, backend.takeSent(1).data().length, "overlapping items each carry all their data");
    }
}
