package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProcNullTest extends MpiTestSupport {
    @BeforeEach
    void startTwoRanks() {
        start(2, 0);
    }

    @Test
    void aSendToProcNullCompletesAtOnceAndSendsNothing() {
        MPI.COMM_WORLD.Ssend(new int[] {1}, 0, 1, MPI.INT, MPI.PROC_NULL, 0);

        assertEquals(0, backend.outboxSize());
        assertNotNull(MPI.COMM_WORLD.Isend(new int[] {1}, 0, 1, MPI.INT, MPI.PROC_NULL, 0).Test());
    }

    @Test
    void aReceiveFromProcNullCompletesEmptyFromProcNull() {
        int[] buffer = {7, 7};

        Status status = MPI.COMM_WORLD.Recv(buffer, 0, 2, MPI.INT, MPI.PROC_NULL, 5);

        assertEquals(MPI.PROC_NULL, status.source);
        assertEquals(MPI.ANY_TAG, status.tag);
        assertEquals(0, status.Get_count(MPI.INT));
        assertArrayEquals(new int[] {7, 7}, buffer, "the buffer is untouched");
    }

    @Test
    void probingProcNullFindsAnEmptyMessageAtOnce() {
        assertEquals(MPI.PROC_NULL, MPI.COMM_WORLD.Probe(MPI.PROC_NULL, 0).source);
        assertEquals(0, MPI.COMM_WORLD.Iprobe(MPI.PROC_NULL, MPI.ANY_TAG).Get_count(MPI.BYTE));
    }

    @Test
    void sendrecvWithProcNullOnBothSidesIsANoOp() {
        Status status = MPI.COMM_WORLD.Sendrecv(new int[1], 0, 1, MPI.INT, MPI.PROC_NULL, 0,
                new int[1], 0, 1, MPI.INT, MPI.PROC_NULL, 0);

        assertEquals(MPI.PROC_NULL, status.source);
    }

    @Test
    void bufferedSendsToProcNullNeedNoAttachedBuffer() {
        MPI.COMM_WORLD.Bsend(new int[1], 0, 1, MPI.INT, MPI.PROC_NULL, 0);
    }
}
