package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code Comm.Pack}, {@code Unpack} and {@code Pack_size}, and packed bytes sent as {@code MPI.PACKED}. */
class PackTest extends MpiTestSupport {
    private Datatype strided;

    @BeforeEach
    void startTwoRanks() {
        start(2, 0);
        strided = Datatype.Vector(3, 1, 2, MPI.DOUBLE);
        strided.Commit();
    }

    @Test
    void packedValuesUnpackIntoTheirPlacesAndPositionsAdvanceByTheirSize() {
        double[] values = {0, 1, 2, 3, 4, 5, 6, 7};
        int[] header = {42, 43};
        ByteBuffer packed = ByteBuffer.allocate(64);

        int position = MPI.COMM_WORLD.Pack(header, 0, 2, MPI.INT, packed, 0);
        position = MPI.COMM_WORLD.Pack(values, 1, 1, strided, packed, position);

        double[] back = new double[8];
        int[] headerBack = new int[2];
        int read = MPI.COMM_WORLD.Unpack(packed, 0, headerBack, 0, 2, MPI.INT);
        read = MPI.COMM_WORLD.Unpack(packed, read, back, 2, 1, strided);

        assertEquals(8 + 24, position);
        assertEquals(position, read);
        assertArrayEquals(header, headerBack);
        assertArrayEquals(new double[] {0, 0, 1, 0, 3, 0, 5, 0}, back);
    }

    @Test
    void packSizeIsTheBytesPackWrites() {
        ByteBuffer packed = ByteBuffer.allocateDirect(64);

        int written = MPI.COMM_WORLD.Pack(new double[11], 0, 2, strided, packed, 3) - 3;

        assertEquals(written, MPI.COMM_WORLD.Pack_size(2, strided));
        assertEquals(2 * 3 * 8, MPI.COMM_WORLD.Pack_size(2, strided));
    }

    @Test
    void packedBytesAreTheBytesASendPutsOnTheWire() {
        double[] values = {1.5, 2.5, 3.5, 4.5, 5.5};
        ByteBuffer packed = ByteBuffer.allocate(24);

        MPI.COMM_WORLD.Pack(values, 0, 1, strided, packed, 0);
        MPI.COMM_WORLD.Send(values, 0, 1, strided, 1, 0);

        assertArrayEquals(backend.takeSent(1).data(), packed.array());
    }

    @Test
    void packLeavesTheBuffersPositionAndLimitAlone() {
        ByteBuffer packed = ByteBuffer.allocate(64).position(5).limit(9);

        MPI.COMM_WORLD.Pack(new double[5], 0, 1, strided, packed, 10);

        assertEquals(5, packed.position());
        assertEquals(9, packed.limit());
    }

    @Test
    void packedBytesTravelAsMpiPackedFromAHeapBufferAndUnpackOnArrival() {
        double[] values = {1, 2, 3, 4, 5};
        ByteBuffer packed = ByteBuffer.allocate(MPI.COMM_WORLD.Pack_size(1, strided));
        int size = MPI.COMM_WORLD.Pack(values, 0, 1, strided, packed, 0);

        MPI.COMM_WORLD.Send(packed, 0, size, MPI.PACKED, 0, 0);
        byte[] arrived = new byte[size];
        Status status = MPI.COMM_WORLD.Recv(arrived, 0, size, MPI.PACKED, 0, 0);
        double[] back = new double[5];
        MPI.COMM_WORLD.Unpack(ByteBuffer.wrap(arrived), 0, back, 0, 1, strided);

        assertEquals(size, status.Get_count(MPI.PACKED));
        assertArrayEquals(new double[] {1, 0, 3, 0, 5}, back);
    }

    @Test
    void packedBytesMayBeReceivedIntoAHeapBuffer() {
        ByteBuffer room = ByteBuffer.allocate(4);

        MPI.COMM_WORLD.Send(new byte[] {1, 2, 3}, 0, 3, MPI.PACKED, 0, 0);
        MPI.COMM_WORLD.Recv(room, 1, 3, MPI.PACKED, 0, 0);

        assertArrayEquals(new byte[] {0, 1, 2, 3}, room.array());
    }

    @Test
    void packingBeyondTheOutputBufferIsABufferError() {
        ByteBuffer small = ByteBuffer.allocate(23);

        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Pack(new double[5], 0, 1, strided, small, 0));
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Pack(new double[5], 0, 1, strided, small, -1));
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Pack(new double[5], 0, 1, strided,
                ByteBuffer.allocate(24).asReadOnlyBuffer(), 0));
    }

    @Test
    void unpackingBeyondTheInputBufferIsABufferError() {
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Unpack(ByteBuffer.allocate(24), 8, new double[5], 0, 1,
                strided));
    }

    @Test
    void objectsHaveNoPackedSizeAsInMpiJava() {
        MPIException e = assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Pack_size(1, MPI.OBJECT));

        assertTrue(e.getMessage().contains("position it returns"), e.getMessage());
    }

    @Test
    void anUncommittedTypeCannotBePacked() {
        Datatype uncommitted = Datatype.Contiguous(2, MPI.INT);

        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Pack(new int[2], 0, 1, uncommitted,
                ByteBuffer.allocate(8), 0));
        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Pack_size(1, uncommitted));
    }

    @Test
    void heapByteBuffersRemainRefusedForOtherTypes() {
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(ByteBuffer.allocate(4), 0, 4, MPI.BYTE, 0, 0));
    }

    @Test
    void theMpiJavaByteArrayFormsPackAndUnpackAsTheByteBufferOnes() {
        double[] values = {0, 1, 2, 3, 4, 5, 6, 7};
        byte[] packed = new byte[40];
        ByteBuffer same = ByteBuffer.allocate(40);

        int position = MPI.COMM_WORLD.Pack(new int[] {42, 43}, 0, 2, MPI.INT, packed, 0);
        position = MPI.COMM_WORLD.Pack(values, 1, 1, strided, packed, position);
        MPI.COMM_WORLD.Pack(values, 1, 1, strided, same, MPI.COMM_WORLD.Pack(new int[] {42, 43}, 0, 2, MPI.INT, same, 0));
        double[] back = new double[8];
        int[] header = new int[2];
        int read = MPI.COMM_WORLD.Unpack(packed, 0, header, 0, 2, MPI.INT);
        read = MPI.COMM_WORLD.Unpack(packed, read, back, 2, 1, strided);

        assertEquals(MPI.COMM_WORLD.Pack_size(2, MPI.INT) + MPI.COMM_WORLD.Pack_size(1, strided), position);
        assertEquals(position, read);
        assertArrayEquals(same.array(), packed);
        assertArrayEquals(new int[] {42, 43}, header);
        assertArrayEquals(new double[] {0, 0, 1, 0, 3, 0, 5, 0}, back);
    }

    @Test
    void theByteArrayFormsCheckTheirArrays() {
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Pack(new int[2], 0, 2, MPI.INT, (byte[]) null, 0));
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Pack(new int[2], 0, 2, MPI.INT, new byte[7], 0));
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Unpack(new byte[8], 4, new int[2], 0, 2, MPI.INT));
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Unpack(new byte[8], -1, new int[2], 0, 1, MPI.INT));
        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Pack(new int[1], 0, 1, MPI.OBJECT, new byte[64], 0));
    }
}
