package mpi;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a blocked call tells the wait report: the call, its peer in the communicator, its tag, the communicator. */
class WaitDescriptionTest extends MpiTestSupport {
    @Test
    void aBlockingReceiveNamesItselfWithSourceTagAndCommunicator() {
        start(2, 1);
        backend.later(() -> backend.deliver(0, 99, WORLD, new byte[4]));
        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 0, 99);
        assertEquals(List.of("Recv(source=0, tag=99, COMM_WORLD)"), backend.lastWaitPending);
    }

    @Test
    void waitNamesTheNonblockingCallsStillPendingAndWildcards() {
        start(2, 1);
        backend.eagerToPeers = false;
        Request receive = MPI.COMM_WORLD.Irecv(new int[1], 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
        Request send = MPI.COMM_WORLD.Issend(new int[1], 0, 1, MPI.INT, 0, 3);
        backend.later(() -> backend.deliver(0, 5, WORLD, new byte[4]));
        backend.later(() -> backend.takeSent(0));
        Request.Waitall(new Request[] {receive, send});
        assertEquals(List.of("Waitall for Irecv(source=ANY_SOURCE, tag=ANY_TAG, COMM_WORLD)",
                "Waitall for Issend(dest=0, tag=3, COMM_WORLD)"), backend.lastWaitPending);
    }

    @Test
    void aSynchronousSendAndAProbeNameThemselves() {
        start(2, 0);
        backend.eagerToPeers = false;
        backend.later(() -> backend.takeSent(1));
        MPI.COMM_WORLD.Ssend(new int[1], 0, 1, MPI.INT, 1, 8);
        assertEquals(List.of("Ssend(dest=1, tag=8, COMM_WORLD)"), backend.lastWaitPending);
        backend.later(() -> backend.deliver(1, 2, WORLD, new byte[4]));
        MPI.COMM_WORLD.Probe(1, 2);
        assertEquals(List.of("Probe(source=1, tag=2, COMM_WORLD)"), backend.lastWaitPending);
    }
}
