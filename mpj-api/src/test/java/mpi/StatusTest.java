package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StatusTest extends MpiTestSupport {
    @BeforeEach
    void startTwoRanks() {
        start(2, 0);
    }

    private Status receivedBytes(int n) {
        backend.deliver(1, 0, WORLD, new byte[n]);
        return MPI.COMM_WORLD.Recv(new byte[64], 0, 64, MPI.BYTE, 1, 0);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"byte", "long", "long straight"})
    void eachBlockingReceiveReturnsItsOwnStatus(String element) {
        boolean longs = element.startsWith("long");
        backend.receivesIntoArrays = element.endsWith("straight");
        Object buf = longs ? new long[4] : new byte[32];
        Datatype type = longs ? MPI.LONG : MPI.BYTE;
        backend.deliver(1, 3, WORLD, new byte[8]);
        backend.deliver(1, 5, WORLD, new byte[24]);
        Status first = MPI.COMM_WORLD.Recv(buf, 0, longs ? 4 : 32, type, 1, MPI.ANY_TAG);
        first.index = 7;
        Status second = MPI.COMM_WORLD.Recv(buf, 0, longs ? 4 : 32, type, 1, MPI.ANY_TAG);

        // mpiJava's Status has public fields a caller may keep and change: a later receive must not touch them
        assertEquals(3, first.tag);
        assertEquals(7, first.index);
        assertEquals(8, first.Get_count(MPI.BYTE));
        assertEquals(5, second.tag);
        assertEquals(MPI.UNDEFINED, second.index);
        assertEquals(24, second.Get_count(MPI.BYTE));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"byte", "long", "long straight"})
    void aWildcardReceiveReportsTheSendersRankTagAndCount(String element) {
        // a byte[] is received in place, a long[] through a transfer buffer or straight into the array: their statuses
        // are made apart
        boolean longs = element.startsWith("long");
        backend.receivesIntoArrays = element.endsWith("straight");
        backend.deliver(1, 9, WORLD, new byte[16]);
        Status status = MPI.COMM_WORLD.Recv(longs ? new long[4] : new byte[32], 0, longs ? 4 : 32,
                longs ? MPI.LONG : MPI.BYTE, MPI.ANY_SOURCE, MPI.ANY_TAG);

        assertEquals(1, status.source);
        assertEquals(9, status.tag);
        assertEquals(16, status.Get_count(MPI.BYTE));
        assertEquals(longs ? 2 : 16, status.Get_count(longs ? MPI.LONG : MPI.BYTE));
        assertFalse(status.Test_cancelled());
    }

    @Test
    void countIsTheNumberOfWholeItems() {
        Status status = receivedBytes(16);

        assertEquals(16, status.Get_count(MPI.BYTE));
        assertEquals(4, status.Get_count(MPI.INT));
        assertEquals(2, status.Get_count(MPI.DOUBLE));
        assertEquals(1, status.Get_count(MPI.LONG2));
    }

    @Test
    void countIsUndefinedWhenTheBytesAreNotWholeItems() {
        Status status = receivedBytes(6);

        assertEquals(MPI.UNDEFINED, status.Get_count(MPI.INT));
        assertEquals(3, status.Get_count(MPI.SHORT));
        assertEquals(MPI.UNDEFINED, status.Get_count(MPI.SHORT2));
    }

    @Test
    void elementsCountPrimitivesOfPairTypes() {
        Status status = receivedBytes(12);

        assertEquals(MPI.UNDEFINED, status.Get_count(MPI.INT2));
        assertEquals(3, status.Get_elements(MPI.INT2));
    }

    @Test
    void objectCountIsTheNumberOfObjectsReceived() {
        MPI.COMM_WORLD.Send(new Object[] {"a", "b"}, 0, 2, MPI.OBJECT, 0, 0);

        Status status = MPI.COMM_WORLD.Recv(new Object[5], 0, 5, MPI.OBJECT, 0, 0);

        assertEquals(2, status.Get_count(MPI.OBJECT));
        assertEquals(2, status.Get_elements(MPI.OBJECT));
    }

    @Test
    void objectCountOfAProbedMessageIsUndefined() {
        MPI.COMM_WORLD.Send(new Object[] {"a"}, 0, 1, MPI.OBJECT, 0, 0);

        assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.Probe(0, 0).Get_count(MPI.OBJECT));
    }

    @Test
    void anEmptyMessageHasCountZeroOfEveryType() {
        Status status = receivedBytes(0);

        assertEquals(0, status.Get_count(MPI.INT));
        assertEquals(0, status.Get_count(MPI.OBJECT));
        assertFalse(status.Test_cancelled());
    }

    @Test
    void aNullDatatypeIsATypeError() {
        Status status = receivedBytes(4);

        assertMpiError(MPI.ERR_TYPE, () -> status.Get_count(null));
    }
}
