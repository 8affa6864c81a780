package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ArgumentValidationTest extends MpiTestSupport {
    private final Comm world = MPI.COMM_WORLD;

    @BeforeEach
    void startTwoRanks() {
        start(2, 0);
    }

    private static void assertMentions(MPIException e, String... words) {
        for (String word : words) {
            assertTrue(e.getMessage().contains(word), "'" + e.getMessage() + "' should mention " + word);
        }
    }

    @Test
    void aNullBufferIsABufferError() {
        assertMentions(assertMpiError(MPI.ERR_BUFFER, () -> world.Send(null, 0, 1, MPI.INT, 1, 0)), "Send", "null");
    }

    @Test
    void anArrayOfTheWrongTypeIsATypeError() {
        MPIException e = assertMpiError(MPI.ERR_TYPE, () -> world.Send(new int[4], 0, 4, MPI.DOUBLE, 1, 0));
        assertMentions(e, "int[]", "MPI.DOUBLE", "double[]");
    }

    @Test
    void aNonObjectArrayForObjectsIsATypeError() {
        assertMpiError(MPI.ERR_TYPE, () -> world.Send(new int[1], 0, 1, MPI.OBJECT, 1, 0));
    }

    @Test
    void aByteBufferForObjectsIsATypeError() {
        assertMpiError(MPI.ERR_TYPE, () -> world.Send(ByteBuffer.allocateDirect(8), 0, 1, MPI.OBJECT, 1, 0));
    }

    @Test
    void aNullDatatypeIsATypeError() {
        assertMentions(assertMpiError(MPI.ERR_TYPE, () -> world.Recv(new int[1], 0, 1, null, 1, 0)), "datatype");
    }

    @Test
    void markerDatatypesCannotDescribeABuffer() {
        assertMpiError(MPI.ERR_TYPE, () -> world.Send(new int[1], 0, 1, MPI.LB, 1, 0));
        assertMpiError(MPI.ERR_TYPE, () -> world.Send(new byte[1], 0, 1, MPI.NULL, 1, 0));
    }

    @Test
    void aHeapByteBufferIsABufferErrorSayingItMustBeDirect() {
        MPIException e = assertMpiError(MPI.ERR_BUFFER, () -> world.Send(ByteBuffer.allocate(8), 0, 2, MPI.INT, 1, 0));
        assertMentions(e, "direct");
    }

    @Test
    void aReadOnlyByteBufferCannotBeReceivedInto() {
        ByteBuffer readOnly = ByteBuffer.allocateDirect(8).asReadOnlyBuffer();
        assertMpiError(MPI.ERR_BUFFER, () -> world.Recv(readOnly, 0, 2, MPI.INT, 1, 0));
    }

    @Test
    void aNegativeCountIsACountError() {
        assertMentions(assertMpiError(MPI.ERR_COUNT, () -> world.Send(new int[4], 0, -1, MPI.INT, 1, 0)), "count", "-1");
    }

    @Test
    void aNegativeOffsetIsABufferError() {
        assertMentions(assertMpiError(MPI.ERR_BUFFER, () -> world.Recv(new int[4], -2, 1, MPI.INT, 1, 0)), "offset", "-2");
    }

    @Test
    void offsetPlusCountBeyondTheArrayIsABufferTooShort() {
        MPIException e = assertMpiError(MPI.ERR_BUFFER, () -> world.Send(new int[4], 2, 3, MPI.INT, 1, 0));
        assertMentions(e, "buffer too short", "5", "4");
    }

    @Test
    void pairCountsAreCheckedInPairs() {
        assertMpiError(MPI.ERR_BUFFER, () -> world.Send(new int[4], 0, 3, MPI.INT2, 1, 0));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"MPI.BYTE", "MPI.CHAR", "MPI.SHORT", "MPI.BOOLEAN", "MPI.INT", "MPI.LONG", "MPI.FLOAT",
            "MPI.DOUBLE", "MPI.INT2", "MPI.DOUBLE2", "MPI.PACKED"})
    void aPredefinedTypesArrayHoldsItemsUpToItsLastElementAndNoFurther(String name) throws Exception {
        Datatype type = (Datatype) MPI.class.getField(name.substring(4)).get(null);
        int size = type.Size();
        Object array = Array.newInstance(type.element.arrayClass.getComponentType(), 1 + 3 * size);

        type.checkBuffer("Recv", array, 1, 3, true);
        type.checkBuffer("Send", array, 1, 0, false);
        assertMentions(assertMpiError(MPI.ERR_BUFFER, () -> type.checkBuffer("Recv", array, 2, 3, true)),
                "Recv", "too short");
        assertMpiError(MPI.ERR_BUFFER, () -> type.checkBuffer("Send", array, 1 + size, 3, false));
        assertMpiError(MPI.ERR_COUNT, () -> type.checkBuffer("Send", array, 0, -1, false));
        assertMpiError(MPI.ERR_BUFFER, () -> type.checkBuffer("Recv", array, -1, 1, true));
        assertMpiError(MPI.ERR_TYPE, () -> type.checkBuffer("Send", new Object[4], 0, 1, false));
    }

    @Test
    void offsetPlusCountBeyondADirectBufferIsABufferTooShort() {
        ByteBuffer direct = ByteBuffer.allocateDirect(12);
        assertMentions(assertMpiError(MPI.ERR_BUFFER, () -> world.Send(direct, 1, 3, MPI.INT, 1, 0)),
                "buffer too short");
    }

    @Test
    void aDestinationOutsideTheCommunicatorIsARankError() {
        assertMentions(assertMpiError(MPI.ERR_RANK, () -> world.Send(new int[1], 0, 1, MPI.INT, 2, 0)), "dest", "2");
        assertMpiError(MPI.ERR_RANK, () -> world.Send(new int[1], 0, 1, MPI.INT, -1, 0));
    }

    @Test
    void anySourceIsNoDestination() {
        assertMpiError(MPI.ERR_RANK, () -> world.Isend(new int[1], 0, 1, MPI.INT, MPI.ANY_SOURCE, 0));
    }

    @Test
    void aSourceOutsideTheCommunicatorIsARankError() {
        assertMentions(assertMpiError(MPI.ERR_RANK, () -> world.Recv(new int[1], 0, 1, MPI.INT, 5, 0)), "source", "5");
        assertMpiError(MPI.ERR_RANK, () -> world.Probe(-7, 0));
    }

    @Test
    void aNegativeSendTagIsATagError() {
        assertMentions(assertMpiError(MPI.ERR_TAG, () -> world.Send(new int[1], 0, 1, MPI.INT, 1, -5)), "tag", "-5");
    }

    @Test
    void anyTagIsNoSendTag() {
        assertMpiError(MPI.ERR_TAG, () -> world.Send(new int[1], 0, 1, MPI.INT, 1, MPI.ANY_TAG));
    }

    @Test
    void aNegativeReceiveTagOtherThanAnyTagIsATagError() {
        assertMpiError(MPI.ERR_TAG, () -> world.Irecv(new int[1], 0, 1, MPI.INT, 1, -3));
    }

    @Test
    void sendrecvChecksBothHalvesBeforeStartingEither() {
        assertMpiError(MPI.ERR_RANK, () -> world.Sendrecv(new int[1], 0, 1, MPI.INT, 0, 0,
                new int[1], 0, 1, MPI.INT, 9, 0));
        assertEquals(0, backend.outboxSize());
        assertEquals(null, world.Iprobe(0, 0), "the send half did not start");
    }

    @Test
    void persistentRequestsAreCheckedWhenCreated() {
        assertMpiError(MPI.ERR_COUNT, () -> world.Send_init(new int[1], 0, -1, MPI.INT, 1, 0));
        assertMpiError(MPI.ERR_TAG, () -> world.Recv_init(new int[1], 0, 1, MPI.INT, 1, -9));
    }

    @Test
    void aZeroCountMessageNeedsNoRoom() {
        world.Send(new int[0], 0, 0, MPI.INT, 0, 0);
        assertEquals(0, world.Recv(new int[0], 0, 0, MPI.INT, 0, 0).Get_count(MPI.INT));
    }
}
