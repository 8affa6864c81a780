package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Recv} into a dense run of a primitive array, and {@code Irecv} into one of a {@code byte[]} too, asks its
 * backend to copy the message straight into the array.
 */
class ReceiveIntoArrayTest extends MpiTestSupport {
    @BeforeEach
    void startTwoRanksReceivingIntoArrays() {
        start(2, 0);
        backend.receivesIntoArrays = true;
    }

    /** Three items of {@code type}, little-endian: 1, 2, 3 in their type. */
    private static byte[] oneTwoThree(String type) {
        ByteBuffer b = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        for (int v = 1; v <= 3; v++) {
            switch (type) {
                case "char", "short" -> b.putShort((short) v);
                case "int" -> b.putInt(v);
                case "long" -> b.putLong(v);
                case "float" -> b.putFloat(v);
                default -> b.putDouble(v);
            }
        }
        byte[] bytes = new byte[b.position()];
        b.flip().get(bytes);
        return bytes;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"char", "short", "int", "long", "float", "double"})
    void theItemsLandFromTheOffsetAndTheRestOfTheArrayStaysAsItWas(String type) {
        Object[] arrays = {new char[6], new short[6], new int[6], new long[6], new float[6], new double[6]};
        Datatype[] types = {MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE};
        int k = List.of("char", "short", "int", "long", "float", "double").indexOf(type);
        double[] expected = {0, 0, 1, 2, 3, 0};
        backend.deliver(1, 5, WORLD, oneTwoThree(type));

        Status status = MPI.COMM_WORLD.Recv(arrays[k], 2, 3, types[k], 1, 5);

        assertEquals(1, backend.arrayReceives, "received straight into the array");
        assertEquals(1, status.source);
        assertEquals(5, status.tag);
        assertEquals(3, status.Get_count(types[k]));
        double[] got = new double[6];
        for (int i = 0; i < 6; i++) {
            got[i] = Array.getDouble(arrays[k], i);
        }
        assertArrayEquals(expected, got);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"byte", "int", "double"})
    void irecvIntoADenseRunAsksTheBackendToCopyIntoTheArrayFromTheOffset(String type) {
        Object into = type.equals("byte") ? new byte[6] : type.equals("int") ? new int[6] : new double[6];
        Datatype datatype = type.equals("byte") ? MPI.BYTE : type.equals("int") ? MPI.INT : MPI.DOUBLE;
        byte[] message = type.equals("byte") ? new byte[] {1, 2, 3} : oneTwoThree(type);
        backend.deliver(1, 5, WORLD, message);

        Status status = MPI.COMM_WORLD.Irecv(into, 2, 3, datatype, 1, 5).Wait();

        assertEquals(1, backend.arrayReceives, "received straight into the array");
        assertEquals(1, status.source);
        assertEquals(5, status.tag);
        assertEquals(3, status.Get_count(datatype));
        double[] got = new double[6];
        for (int i = 0; i < 6; i++) {
            got[i] = Array.getDouble(into, i);
        }
        assertArrayEquals(new double[] {0, 0, 1, 2, 3, 0}, got);
    }

    @Test
    void aContiguousTypeLandsFromTheOffsetInElementsAndTakesTheWholeMessage() {
        Datatype pair = committed(Datatype.Contiguous(2, MPI.INT));
        int[] into = new int[8];
        backend.deliver(1, 0, WORLD, oneTwoThree("int"));

        Status status = MPI.COMM_WORLD.Recv(into, 1, 2, pair, 1, 0);

        assertEquals(1, backend.arrayReceives, "received straight into the array");
        assertEquals(12, status.Get_count(MPI.BYTE));
        // mpiJava's offset counts the array's elements, not the type's items
        assertArrayEquals(new int[] {0, 1, 2, 3, 0, 0, 0, 0}, into);
    }

    @Test
    void aLongerMessageRaisesTruncate() {
        backend.deliver(1, 0, WORLD, oneTwoThree("long"));

        assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Recv(new long[2], 0, 2, MPI.LONG, 1, 0));
        assertEquals(1, backend.arrayReceives);
    }

    @Test
    void booleansAndBytesAreNotCopiedAsTheyAre() {
        boolean[] flags = new boolean[2];
        byte[] bytes = new byte[2];
        backend.deliver(1, 0, WORLD, new byte[] {2, 0});
        backend.deliver(1, 0, WORLD, new byte[] {7, 8});

        MPI.COMM_WORLD.Recv(flags, 0, 2, MPI.BOOLEAN, 1, 0);
        MPI.COMM_WORLD.Recv(bytes, 0, 2, MPI.BYTE, 1, 0);

        assertEquals(0, backend.arrayReceives);
        assertArrayEquals(new boolean[] {true, false}, flags);
        assertArrayEquals(new byte[] {7, 8}, bytes);
    }
}
