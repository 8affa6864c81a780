package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PersistentRequestTest extends MpiTestSupport {
    @BeforeEach
    void startOneRank() {
        start(1, 0);
    }

    @Test
    void aPersistentRequestCanBeStartedAgainAfterCompleting() {
        int[] out = new int[1];
        int[] in = new int[1];
        Prequest send = MPI.COMM_WORLD.Send_init(out, 0, 1, MPI.INT, 0, 0);
        Prequest receive = MPI.COMM_WORLD.Recv_init(in, 0, 1, MPI.INT, 0, 0);

        for (int round = 1; round <= 3; round++) {
            out[0] = round * 10;
            receive.Start();
            send.Start();
            Request.Waitall(new Request[] {receive, send});

            assertEquals(round * 10, in[0], "each start reads the send buffer afresh");
        }
    }

    @Test
    void aCompletedPersistentRequestIsInactiveNotNull() {
        Prequest send = MPI.COMM_WORLD.Send_init(new int[1], 0, 1, MPI.INT, 0, 0);
        send.Start();

        send.Wait();

        assertFalse(send.Is_null());
        assertEquals(MPI.ANY_TAG, send.Wait().tag, "waiting on an inactive request returns an empty status");
    }

    @Test
    void aPersistentRequestDoesNothingUntilStarted() {
        MPI.COMM_WORLD.Send_init(new int[1], 0, 1, MPI.INT, 0, 0);

        assertNull(MPI.COMM_WORLD.Iprobe(0, 0));
    }

    @Test
    void startingAnActiveRequestIsARequestError() {
        Prequest receive = MPI.COMM_WORLD.Recv_init(new int[1], 0, 1, MPI.INT, 0, 0);
        receive.Start();

        assertMpiError(MPI.ERR_REQUEST, receive::Start);
    }

    @Test
    void startallStartsEveryRequest() {
        int[] in = new int[2];
        Prequest[] requests = {
                MPI.COMM_WORLD.Recv_init(in, 0, 1, MPI.INT, 0, 1),
                MPI.COMM_WORLD.Recv_init(in, 1, 1, MPI.INT, 0, 2),
                MPI.COMM_WORLD.Send_init(new int[] {5}, 0, 1, MPI.INT, 0, 2),
                MPI.COMM_WORLD.Send_init(new int[] {4}, 0, 1, MPI.INT, 0, 1)};

        Prequest.Startall(requests);
        Request.Waitall(requests);

        assertArrayEquals(new int[] {4, 5}, in);
    }

    @Test
    void startallWithAnActiveRequestStartsNone() {
        Prequest idle = MPI.COMM_WORLD.Send_init(new int[1], 0, 1, MPI.INT, 0, 0);
        Prequest active = MPI.COMM_WORLD.Recv_init(new int[1], 0, 1, MPI.INT, 0, 0);
        active.Start();

        assertMpiError(MPI.ERR_REQUEST, () -> Prequest.Startall(new Prequest[] {idle, active}));
        assertNull(MPI.COMM_WORLD.Iprobe(0, 0), "the idle send was not started");
    }

    @Test
    void waitanySkipsInactivePersistentRequests() {
        Prequest inactive = MPI.COMM_WORLD.Send_init(new int[1], 0, 1, MPI.INT, 0, 0);

        assertEquals(MPI.UNDEFINED, Request.Waitany(new Request[] {inactive}).index);
    }

    @Test
    void startingAfterFinalizeIsAnError() {
        Prequest send = MPI.COMM_WORLD.Send_init(new int[1], 0, 1, MPI.INT, MPI.PROC_NULL, 0);
        MPI.Finalize();

        assertMpiError(MPI.ERR_OTHER, send::Start);
    }
}
