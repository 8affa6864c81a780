package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * The collective calls of {@link Intracomm}: argument errors are raised before anything is sent, and the
 * buffers (offsets, displacements, MPI.IN_PLACE) reach the runtime and come back as they should. Data
 * movement between ranks is tested in the runtime and across processes.
 */
class CollectiveArgumentsTest extends MpiTestSupport {
    private final Intracomm world = MPI.COMM_WORLD;

    @Test
    void aRootOutsideTheCommunicatorIsErrRoot() {
        start(2, 0);
        assertMpiError(MPI.ERR_ROOT, () -> world.Bcast(new int[1], 0, 1, MPI.INT, 2));
        assertMpiError(MPI.ERR_ROOT, () -> world.Reduce(new int[1], 0, new int[1], 0, 1, MPI.INT, MPI.SUM, -1));
        assertMpiError(MPI.ERR_ROOT, () -> world.Gather(new int[1], 0, 1, MPI.INT, new int[2], 0, 1, MPI.INT, 5));
        assertMpiError(MPI.ERR_ROOT, () -> world.Scatterv(new int[2], 0, new int[] {1, 1}, new int[] {0, 1}, MPI.INT,
                new int[1], 0, 1, MPI.INT, MPI.PROC_NULL));
        assertTrue(backend.collectives.isEmpty());
    }

    @Test
    void negativeCountsAreErrCount() {
        start(2, 0);
        assertMpiError(MPI.ERR_COUNT, () -> world.Bcast(new int[1], 0, -1, MPI.INT, 0));
        assertMpiError(MPI.ERR_COUNT, () -> world.Allgather(new int[1], 0, 1, MPI.INT, new int[2], 0, -1, MPI.INT));
        assertMpiError(MPI.ERR_COUNT, () -> world.Gatherv(new int[1], 0, 1, MPI.INT, new int[2], 0,
                new int[] {1, -1}, new int[] {0, 1}, MPI.INT, 0));
    }

    @Test
    void nullBuffersAreErrBuffer() {
        start(2, 0);
        assertMpiError(MPI.ERR_BUFFER, () -> world.Bcast(null, 0, 1, MPI.INT, 0));
        assertMpiError(MPI.ERR_BUFFER, () -> world.Allreduce(new int[1], 0, null, 0, 1, MPI.INT, MPI.SUM));
    }

    @Test
    void missingCountOrDisplacementArraysAreErrArg() {
        start(2, 0);
        assertMpiError(MPI.ERR_ARG, () -> world.Allgatherv(new int[1], 0, 1, MPI.INT, new int[2], 0, null,
                new int[] {0, 1}, MPI.INT));
        assertMpiError(MPI.ERR_ARG, () -> world.Alltoallv(new int[2], 0, new int[] {1, 1}, new int[] {0}, MPI.INT,
                new int[2], 0, new int[] {1, 1}, new int[] {0, 1}, MPI.INT));
    }

    @Test
    void inPlaceWhereMpiDoesNotAllowItIsErrBuffer() {
        start(2, 1);
        assertMpiError(MPI.ERR_BUFFER, () -> world.Gather(MPI.IN_PLACE, 0, 1, MPI.INT, new int[2], 0, 1, MPI.INT, 0));
        assertMpiError(MPI.ERR_BUFFER, () -> world.Reduce(MPI.IN_PLACE, 0, new int[1], 0, 1, MPI.INT, MPI.SUM, 0));
        assertMpiError(MPI.ERR_BUFFER, () -> world.Bcast(MPI.IN_PLACE, 0, 1, MPI.INT, 0));
        assertMpiError(MPI.ERR_BUFFER, () -> world.Scatter(new int[2], 0, 1, MPI.INT, MPI.IN_PLACE, 0, 1, MPI.INT, 0));
    }

    @Test
    void anOperationUndefinedForTheTypeIsErrOp() {
        start(2, 0);
        MPIException e = assertMpiError(MPI.ERR_OP, () -> world.Allreduce(new double[1], 0, new double[1], 0, 1,
                MPI.DOUBLE, MPI.BAND));
        assertTrue(e.getMessage().contains("MPI.BAND") && e.getMessage().contains("MPI.DOUBLE"), e.getMessage());
        assertMpiError(MPI.ERR_OP, () -> world.Reduce(new int[1], 0, new int[1], 0, 1, MPI.INT, null, 0));
    }

    @Test
    void objectsNeedMpiObjectOnBothSidesOfACollective() {
        start(2, 0);
        assertMpiError(MPI.ERR_TYPE, () -> world.Allgather(new Object[1], 0, 1, MPI.OBJECT, new int[2], 0, 1,
                MPI.INT));
    }

    @Test
    void gathervPlacesEachBlockAtItsDisplacementFromTheOffset() {
        start(1, 0);
        int[] recv = new int[8];
        world.Gatherv(new int[] {9, 7, 5}, 1, 2, MPI.INT, recv, 2, new int[] {2}, new int[] {3}, MPI.INT, 0);
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, 7, 5, 0}, recv);
    }

    @Test
    void inPlaceReductionsUseTheReceiveBufferAsInput() {
        start(1, 0);
        double[] data = {1.5, 2.5, 3.5};
        world.Allreduce(MPI.IN_PLACE, 0, data, 1, 2, MPI.DOUBLE, MPI.SUM);
        assertArrayEquals(new double[] {1.5, 2.5, 3.5}, data);
        long[] scan = {4, 5};
        world.Scan(MPI.IN_PLACE, 0, scan, 0, 2, MPI.LONG, MPI.MAX);
        assertArrayEquals(new long[] {4, 5}, scan);
        assertEquals(java.util.List.of("allreduce", "scan"), backend.collectives);
    }

    @Test
    void inPlaceAlltoallAndAllgatherKeepTheCallersBlock() {
        start(1, 0);
        short[] a = {3, 4};
        world.Alltoall(MPI.IN_PLACE, 0, 0, null, a, 0, 2, MPI.SHORT);
        assertArrayEquals(new short[] {3, 4}, a);
        char[] c = {'x', 'y', 'z'};
        world.Allgather(MPI.IN_PLACE, 0, 0, null, c, 1, 2, MPI.CHAR);
        assertArrayEquals(new char[] {'x', 'y', 'z'}, c);
    }

    @Test
    void aDirectByteBufferIsFilledInPlace() {
        start(1, 0);
        ByteBuffer out = ByteBuffer.allocateDirect(16).order(ByteOrder.LITTLE_ENDIAN);
        world.Reduce(new int[] {0, 42}, 1, out, 2, 1, MPI.INT, MPI.SUM, 0);
        assertEquals(42, out.getInt(8));
    }

    @Test
    void reduceScatterKeepsTheCallersBlock() {
        start(1, 0);
        int[] recv = new int[3];
        world.Reduce_scatter(new int[] {1, 2, 3}, 0, recv, 1, new int[] {2}, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {0, 1, 2}, recv);
    }

    // ---- Exscan: Scan, then each member's inclusive result goes to the next member ----

    /** The collective context of MPI.COMM_WORLD, where Exscan's shift travels. */
    private static final int WORLD_COLLECTIVE = 1;

    private static byte[] intsOf(int... values) {
        ByteBuffer bytes = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : values) {
            bytes.putInt(v);
        }
        return bytes.array();
    }

    @Test
    void exscanGivesAMemberThePreviousMembersInclusiveScan() {
        start(3, 1);
        backend.scanResult = intsOf(30, 40);
        backend.deliver(0, 0, WORLD_COLLECTIVE, intsOf(10, 20));
        int[] recv = {-1, 0, 0, -1};

        world.Exscan(new int[] {9, 7, 5}, 1, recv, 1, 2, MPI.INT, MPI.SUM);

        assertArrayEquals(new int[] {-1, 10, 20, -1}, recv);
        assertArrayEquals(intsOf(7, 5), backend.scanned, "its own contribution goes into the scan");
        LoopbackBackend.Message shifted = backend.takeSent(2);
        assertArrayEquals(intsOf(30, 40), shifted.data());
        assertEquals(WORLD_COLLECTIVE, shifted.context());
        assertEquals(0, shifted.tag());
    }

    @Test
    void exscanLeavesTheFirstMembersBufferUnchanged() {
        start(2, 0);
        backend.scanResult = intsOf(3);
        int[] recv = {77};

        world.Exscan(new int[] {3}, 0, recv, 0, 1, MPI.INT, MPI.PROD);

        assertArrayEquals(new int[] {77}, recv);
        assertArrayEquals(intsOf(3), backend.takeSent(1).data());
    }

    @Test
    void exscanInPlaceTakesTheContributionFromTheReceiveBufferAndNeedsNoSendOnTheLastMember() {
        start(2, 1);
        backend.scanResult = intsOf(11);
        backend.deliver(0, 0, WORLD_COLLECTIVE, intsOf(4));
        int[] data = {7};

        world.Exscan(MPI.IN_PLACE, 0, data, 0, 1, MPI.INT, MPI.SUM);

        assertArrayEquals(intsOf(7), backend.scanned);
        assertArrayEquals(new int[] {4}, data);
        assertEquals(0, backend.outboxSize());
    }

    @Test
    void exscanAloneLeavesTheBufferAsItIs() {
        start(1, 0);
        double[] recv = {2.5};

        world.Exscan(new double[] {1.5}, 0, recv, 0, 1, MPI.DOUBLE, MPI.SUM);

        assertArrayEquals(new double[] {2.5}, recv);
        assertEquals(java.util.List.of("scan"), backend.collectives);
    }

    @Test
    void exscanChecksItsArgumentsAsScanDoes() {
        start(2, 0);
        assertMpiError(MPI.ERR_OP, () -> world.Exscan(new int[1], 0, new int[1], 0, 1, MPI.INT, null));
        assertMpiError(MPI.ERR_OP, () -> world.Exscan(new double[1], 0, new double[1], 0, 1, MPI.DOUBLE, MPI.BAND));
        assertMpiError(MPI.ERR_OP, () -> world.Exscan(new Object[1], 0, new Object[1], 0, 1, MPI.OBJECT, MPI.SUM));
        assertMpiError(MPI.ERR_BUFFER, () -> world.Exscan(new int[1], 0, new int[1], 0, 2, MPI.INT, MPI.SUM));
        assertMpiError(MPI.ERR_COUNT, () -> world.Exscan(new int[1], 0, new int[1], 0, -1, MPI.INT, MPI.SUM));
        assertTrue(backend.collectives.isEmpty());
    }

    @Test
    void exscanOfAShorterBlockFromThePreviousMemberIsErrCount() {
        start(2, 1);
        backend.scanResult = intsOf(1, 2);
        backend.deliver(0, 0, WORLD_COLLECTIVE, intsOf(1));

        assertMpiError(MPI.ERR_COUNT, () -> world.Exscan(new int[2], 0, new int[2], 0, 2, MPI.INT, MPI.SUM));
    }
}
