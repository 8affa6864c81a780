package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The non-blocking collectives of {@link Intracomm} on the API side: argument errors raised before anything
 * starts, the sequence numbers that keep outstanding collectives apart, and results landing in the user's buffer
 * when the request completes. Data movement between ranks is tested in the runtime and across processes.
 */
class NonBlockingCollectiveCallsTest extends MpiTestSupport {
    private final Intracomm world = MPI.COMM_WORLD;

    @Test
    void argumentErrorsAreRaisedWhenTheCallStartsWithTheBlockingCallsClasses() {
        start(2, 1);
        assertMpiError(MPI.ERR_ROOT, () -> world.Ibcast(new int[1], 0, 1, MPI.INT, 2));
        assertMpiError(MPI.ERR_ROOT, () -> world.Ireduce(new int[1], 0, new int[1], 0, 1, MPI.INT, MPI.SUM, -1));
        assertMpiError(MPI.ERR_COUNT, () -> world.Ibcast(new int[1], 0, -1, MPI.INT, 0));
        assertMpiError(MPI.ERR_BUFFER, () -> world.Iallreduce(new int[1], 0, null, 0, 1, MPI.INT, MPI.SUM));
        assertMpiError(MPI.ERR_BUFFER, () -> world.Ireduce(MPI.IN_PLACE, 0, new int[1], 0, 1, MPI.INT, MPI.SUM, 0));
        assertMpiError(MPI.ERR_OP, () -> world.Iallreduce(new int[1], 0, new int[1], 0, 1, MPI.INT, null));
        assertMpiError(MPI.ERR_OP, () -> world.Iallreduce(new boolean[1], 0, new boolean[1], 0, 1, MPI.BOOLEAN,
                MPI.SUM));
        assertMpiError(MPI.ERR_TYPE, () -> world.Iallgather(new int[1], 0, 1, null, new int[2], 0, 1, MPI.INT));
        assertMpiError(MPI.ERR_BUFFER, () -> world.Ialltoall(new int[2], 0, 1, MPI.INT, new int[1], 0, 1, MPI.INT));
        assertTrue(backend.sequences.isEmpty(), "nothing started: " + backend.sequences);
    }

    @Test
    void objectsAreErrTypeNamingTheBlockingCollective() {
        start(1, 0);
        MPIException e = assertMpiError(MPI.ERR_TYPE, () -> world.Ibcast(new Object[1], 0, 1, MPI.OBJECT, 0));
        assertTrue(e.getMessage().contains("MPI.OBJECT"), e.getMessage());
        assertMpiError(MPI.ERR_TYPE, () -> world.Ialltoall(new Object[1], 0, 1, MPI.OBJECT, new Object[1], 0, 1,
                MPI.OBJECT));
        assertTrue(backend.sequences.isEmpty());
    }

    @Test
    void eachCommunicatorNumbersItsCollectivesInTheOrderTheyStart() {
        start(1, 0);
        world.Ibarrier().Wait();
        assertMpiError(MPI.ERR_ROOT, () -> world.Ibcast(new int[1], 0, 1, MPI.INT, 1));
        world.Iallreduce(new int[1], 0, new int[1], 0, 1, MPI.INT, MPI.SUM).Wait();
        Intracomm dup = world.Dup();
        dup.Ibarrier().Wait();
        world.Ibarrier().Wait();
        assertEquals(List.of(0, 1, 0, 2), backend.sequences, "a failed start takes no number; a new communicator "
                + "starts from 0");
    }

    @Test
    void theResultLandsInTheUsersArrayWhenTheRequestCompletes() {
        start(1, 0);
        long[] sums = new long[4];
        Request allreduce = world.Iallreduce(new long[] {9, 7, 5, 3}, 1, sums, 2, 2, MPI.LONG, MPI.SUM);
        int[] gathered = new int[3];
        Request allgather = world.Iallgather(new int[] {4, 2}, 0, 2, MPI.INT, gathered, 1, 2, MPI.INT);
        Status[] statuses = Request.Waitall(new Request[] {allgather, allreduce});
        assertArrayEquals(new long[] {0, 0, 7, 5}, sums);
        assertArrayEquals(new int[] {0, 4, 2}, gathered);
        assertNotNull(statuses[0]);
        assertEquals(MPI.ANY_SOURCE, statuses[0].source);
        assertTrue(allreduce.Is_null(), "a completed collective request is null");
        assertEquals(0, world.Ibcast(new double[1], 0, 1, MPI.DOUBLE, 0).Test().Get_count(MPI.DOUBLE));
    }
}
