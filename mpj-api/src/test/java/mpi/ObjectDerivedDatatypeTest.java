package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Derived datatypes over {@link MPI#OBJECT}: they select slots of an {@code Object[]} (displacements, strides and
 * extents in slots), in point-to-point, collectives on one member and {@code Pack}/{@code Unpack}. Several members
 * are covered across processes.
 */
class ObjectDerivedDatatypeTest extends MpiTestSupport {
    /** Slots 0 and 2: an extent of 3. */
    private static Datatype everyOther() {
        return committed(Datatype.Vector(2, 1, 2, MPI.OBJECT));
    }

    private static Object[] letters(int n) {
        Object[] objects = new Object[n];
        for (int i = 0; i < n; i++) {
            objects[i] = String.valueOf((char) ('a' + i));
        }
        return objects;
    }

    @Test
    void aVectorSendsTheSelectedSlotsAndAContiguousReceiveTakesThemInOrder() {
        start(2, 0);
        Datatype everyOther = committed(Datatype.Vector(3, 1, 2, MPI.OBJECT));
        Object[] received = new Object[5];

        MPI.COMM_WORLD.Send(letters(8), 1, 1, everyOther, 0, 0);
        Status status = MPI.COMM_WORLD.Recv(received, 1, 4, MPI.OBJECT, 0, 0);

        assertArrayEquals(new Object[] {null, "b", "d", "f", null}, received);
        assertEquals(3, status.Get_count(MPI.OBJECT));
    }

    @Test
    void anIndexedReceiveFillsItsSlotsAndLeavesTheOthers() {
        start(2, 0);
        Datatype indexed = committed(Datatype.Indexed(new int[] {2, 1}, new int[] {3, 0}, MPI.OBJECT));
        Object[] received = {"-", "-", "-", "-", "-", "-"};

        MPI.COMM_WORLD.Send(letters(3), 0, 3, MPI.OBJECT, 0, 0);
        Status status = MPI.COMM_WORLD.Recv(received, 1, 1, indexed, 0, 0);

        assertArrayEquals(new Object[] {"-", "c", "-", "-", "a", "b"}, received);
        assertEquals(1, status.Get_count(indexed));
        assertEquals(3, status.Get_elements(indexed));
    }

    @Test
    void consecutiveItemsOfAStructLieOneExtentApart() {
        start(2, 0);
        Datatype struct = committed(Datatype.Struct(new int[] {1, 1, 1}, new int[] {2, 0, 3},
                new Datatype[] {MPI.OBJECT, MPI.OBJECT, MPI.UB}));
        Object[] received = new Object[6];

        MPI.COMM_WORLD.Send(letters(6), 0, 2, struct, 0, 0);
        MPI.COMM_WORLD.Recv(received, 0, 4, MPI.OBJECT, 0, 0);

        assertArrayEquals(new Object[] {"c", "a", "f", "d", null, null}, received);
    }

    @Test
    void moreObjectsThanTheReceivingItemsHoldRaisesTruncate() {
        start(2, 0);
        Datatype pair = committed(Datatype.Contiguous(2, MPI.OBJECT));

        MPI.COMM_WORLD.Send(letters(3), 0, 3, MPI.OBJECT, 0, 0);

        assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Recv(new Object[4], 0, 1, pair, 0, 0));
    }

    @Test
    void aPartItemLeavesItsCountUndefinedButCountsItsObjects() {
        start(2, 0);
        Datatype pair = committed(Datatype.Contiguous(2, MPI.OBJECT));

        MPI.COMM_WORLD.Send(letters(3), 0, 3, MPI.OBJECT, 0, 0);
        Status status = MPI.COMM_WORLD.Recv(new Object[4], 0, 2, pair, 0, 0);

        assertEquals(MPI.UNDEFINED, status.Get_count(pair));
        assertEquals(3, status.Get_elements(pair));
    }

    @Test
    void objectTypesNeedAnObjectArrayAndACommit() {
        start(2, 0);
        Datatype pair = Datatype.Contiguous(2, MPI.OBJECT);

        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new Object[2], 0, 1, pair, 0, 0));
        pair.Commit();
        assertMpiError(MPI.ERR_TYPE, () -> MPI.COMM_WORLD.Send(new int[2], 0, 1, pair, 0, 0));
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Send(new Object[3], 2, 1, pair, 0, 0));
    }

    @Test
    void collectivePlacementCountsExtentsOfTheObjectType() {
        start(1, 0);
        Datatype spaced = everyOther();
        Object[] gathered = new Object[10];
        Object[] scattered = new Object[3];

        MPI.COMM_WORLD.Gatherv(letters(2), 0, 2, MPI.OBJECT, gathered, 1, new int[] {1}, new int[] {2}, spaced, 0);
        MPI.COMM_WORLD.Scatter(letters(4), 0, 1, spaced, scattered, 0, 2, MPI.OBJECT, 0);

        // block 0 at displacement 2 extents (of 3 slots) from offset 1
        assertArrayEquals(new Object[] {null, null, null, null, null, null, null, "a", null, "b"}, gathered);
        assertArrayEquals(new Object[] {"a", "c", null}, scattered);
    }

    @Test
    void aUserOpCombinesTheObjectsOfEveryItem() {
        start(1, 0);
        Datatype everyOther = everyOther();
        Object[] result = {"-", "-", "-"};

        MPI.COMM_WORLD.Allreduce(letters(3), 0, result, 0, 1, everyOther, ObjectCollectivesTest.CONCAT);

        assertArrayEquals(new Object[] {"a", "-", "c"}, result);
    }

    @Test
    void packedObjectsUnpackIntoTheirSlotsBetweenPrimitives() {
        start(1, 0);
        Datatype everyOther = everyOther();
        byte[] packed = new byte[512];
        Object[] back = new Object[4];
        int[] trailer = new int[1];

        int position = MPI.COMM_WORLD.Pack(letters(3), 0, 1, everyOther, packed, 0);
        position = MPI.COMM_WORLD.Pack(new int[] {7}, 0, 1, MPI.INT, packed, position);
        int read = MPI.COMM_WORLD.Unpack(packed, 0, back, 1, 1, everyOther);
        read = MPI.COMM_WORLD.Unpack(packed, read, trailer, 0, 1, MPI.INT);

        assertEquals(position, read);
        assertArrayEquals(new Object[] {null, "a", null, "c"}, back);
        assertEquals(7, trailer[0]);
    }

    @Test
    void packedObjectsTravelAsMpiPacked() {
        start(2, 0);
        ByteBuffer packed = ByteBuffer.allocate(256);
        int size = MPI.COMM_WORLD.Pack(letters(2), 0, 2, MPI.OBJECT, packed, 0);

        MPI.COMM_WORLD.Send(packed, 0, size, MPI.PACKED, 0, 0);
        byte[] arrived = new byte[size];
        MPI.COMM_WORLD.Recv(arrived, 0, size, MPI.PACKED, 0, 0);
        Object[] back = new Object[2];
        MPI.COMM_WORLD.Unpack(arrived, 0, back, 0, 2, MPI.OBJECT);

        assertArrayEquals(letters(2), back);
    }

    @Test
    void packingObjectsChecksRoomAndWhatItReads() {
        start(1, 0);

        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Pack(letters(2), 0, 2, MPI.OBJECT, new byte[16], 0));
        assertMpiError(MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.Unpack(new byte[] {(byte) 200, 0, 0, 0, 1}, 0,
                new Object[1], 0, 1, MPI.OBJECT));
        byte[] packed = new byte[256];
        MPI.COMM_WORLD.Pack(letters(2), 0, 2, MPI.OBJECT, packed, 0);
        assertMpiError(MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.Unpack(packed, 0, new Object[1], 0, 1, MPI.OBJECT));
    }
}
