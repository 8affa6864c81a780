package mpi;

import static mpi.MpiTestSupport.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Derived types of no data: MPI lets them describe messages, which then carry no bytes and count 0
 * items, through the blocking, non-blocking, persistent and packing calls alike.
 */
class ZeroSizeDatatypeTest extends MpiTestSupport {
    @BeforeEach
    void startTwoRanks() {
        start(2, 0);
    }

    static Stream<Datatype> emptyTypes() {
        return Stream.of(
                Datatype.Struct(new int[0], new int[0], new Datatype[0]),
                Datatype.Contiguous(0, MPI.INT),
                Datatype.Vector(0, 3, 4, MPI.INT),
                Datatype.Struct(new int[] {1, 1}, new int[] {0, 4}, new Datatype[] {MPI.LB, MPI.UB}),
                Datatype.Contiguous(3, Datatype.Struct(new int[0], new int[0], new Datatype[0])));
    }

    @ParameterizedTest
    @MethodSource("emptyTypes")
    void aMessageOfAnEmptyTypeCarriesNoBytesAndCountsZero(Datatype type) {
        committed(type);
        int[] buffer = {7, 8, 9};

        MPI.COMM_WORLD.Send(buffer, 0, 5, type, 1, 3);
        byte[] wire = backend.takeSent(1).data();
        backend.deliver(1, 3, WORLD, wire);
        Status status = MPI.COMM_WORLD.Recv(buffer, 0, 5, type, 1, 3);

        assertEquals(0, wire.length);
        assertEquals(0, status.Get_count(type));
        assertEquals(0, status.Get_elements(type));
        assertEquals(1, status.source);
        assertArrayEquals(new int[] {7, 8, 9}, buffer, "the buffer is not touched");
    }

    @Test
    void nonBlockingAndPersistentFormsAcceptAnEmptyStruct() {
        Datatype empty = committed(Datatype.Struct(new int[0], new int[0], new Datatype[0]));
        double[] buffer = new double[1];

        Request receive = MPI.COMM_WORLD.Irecv(buffer, 0, 1, empty, 1, 0);
        MPI.COMM_WORLD.Isend(buffer, 0, 1, empty, 1, 0).Wait();
        Prequest again = MPI.COMM_WORLD.Send_init(buffer, 0, 2, empty, 1, 1);
        again.Start();
        again.Wait();
        backend.deliver(1, 0, WORLD, backend.takeSent(1).data());

        assertEquals(0, receive.Wait().Get_count(empty));
        assertEquals(0, backend.takeSent(1).data().length);
    }

    @Test
    void anEmptyTypeTakesAnyArrayOrByteBufferAsItsBuffer() {
        Datatype empty = committed(Datatype.Struct(new int[0], new int[0], new Datatype[0]));

        MPI.COMM_WORLD.Send(new Object[0], 0, 1, empty, 1, 0);
        MPI.COMM_WORLD.Send(ByteBuffer.allocate(0), 0, 1, empty, 1, 0);
        MPI.COMM_WORLD.Send(new boolean[2], 0, 1, empty, 1, 0);

        assertEquals(3, backend.outboxSize());
    }

    @Test
    void packingAnEmptyTypeTakesNoRoom() {
        Datatype empty = committed(Datatype.Struct(new int[0], new int[0], new Datatype[0]));
        byte[] packed = new byte[4];

        assertEquals(0, MPI.COMM_WORLD.Pack_size(9, empty));
        assertEquals(2, MPI.COMM_WORLD.Pack(new int[1], 0, 9, empty, packed, 2));
        assertEquals(2, MPI.COMM_WORLD.Unpack(packed, 2, new int[1], 0, 9, empty));
    }

    @Test
    void anEmptyTypeCanJoinAStructOfData() {
        Datatype empty = Datatype.Struct(new int[] {1}, new int[] {6}, new Datatype[] {MPI.UB});
        Datatype padded = committed(Datatype.Struct(new int[] {2, 1}, new int[] {0, 0},
                new Datatype[] {MPI.INT, empty}));

        assertEquals(2, padded.Size());
        assertEquals(6, padded.Extent());
        MPI.COMM_WORLD.Send(new int[] {1, 2, 0, 0, 0, 0, 3, 4}, 0, 2, padded, 1, 0);
        assertEquals(16, backend.takeSent(1).data().length);
    }

    @Test
    void theErrorsOfUnusableTypesStay() {
        Datatype uncommitted = Datatype.Struct(new int[0], new int[0], new Datatype[0]);
        Datatype freed = committed(Datatype.Contiguous(0, MPI.INT));
        freed.free();

        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[1], 0, 1, uncommitted, 1, 0));
        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[1], 0, 1, freed, 1, 0));
        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.LB, 1, 0));
        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.NULL, 1, 0));
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(null, 0, 1, committed(uncommitted), 1, 0));
        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new Object(), 0, 1, uncommitted, 1, 0));
        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Allreduce(new int[1], 0, new int[1], 0, 1, uncommitted,
                MPI.SUM));
    }
}
