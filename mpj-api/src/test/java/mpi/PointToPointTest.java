package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PointToPointTest extends MpiTestSupport {
    @BeforeEach
    void startTwoRanks() {
        start(2, 0);
    }

    @Test
    void sendrecvWithItselfDoesNotDeadlock() {
        int[] received = new int[2];

        Status status = MPI.COMM_WORLD.Sendrecv(new int[] {3, 4}, 0, 2, MPI.INT, 0, 5,
                received, 0, 2, MPI.INT, 0, 5);

        assertArrayEquals(new int[] {3, 4}, received);
        assertEquals(0, status.source);
        assertEquals(5, status.tag);
        assertEquals(MPI.UNDEFINED, status.index);
    }

    @Test
    void sendrecvPostsTheReceiveBeforeStartingTheSend() {
        int[] received = new int[1];
        backend.later(() -> backend.takeSent(1));
        backend.later(() -> backend.deliver(1, 0, WORLD, new byte[] {7, 0, 0, 0}));
        backend.eagerToPeers = false;

        MPI.COMM_WORLD.Sendrecv(new int[] {1}, 0, 1, MPI.INT, 1, 0, received, 0, 1, MPI.INT, 1, 0);

        assertEquals(7, received[0]);
        assertEquals(java.util.List.of("receive", "send"), backend.calls);
    }

    @Test
    void sendrecvReplaceSendsTheOldContentsAndKeepsTheNew() {
        int[] buffer = {1, 2, 3};

        MPI.COMM_WORLD.Sendrecv_replace(buffer, 1, 2, MPI.INT, 0, 0, 0, 0);

        assertArrayEquals(new int[] {1, 2, 3}, buffer, "own message came back");
        MPI.COMM_WORLD.Isend(new int[] {8, 9}, 0, 2, MPI.INT, 0, 1);
        MPI.COMM_WORLD.Sendrecv_replace(buffer, 0, 2, MPI.INT, 1, 2, 0, 1);

        assertArrayEquals(new int[] {8, 9, 3}, buffer);
        assertArrayEquals(new byte[] {1, 0, 0, 0, 2, 0, 0, 0}, backend.takeSent(1).data());
    }

    @Test
    void anIsendTheRuntimeSendsAtOnceIsCompleteWithTheStatusOfItsSend() {
        backend.sendsNow = true;

        Request request = MPI.COMM_WORLD.Isend(new int[] {5, 6, 7}, 1, 2, MPI.INT, 1, 4);

        assertEquals(java.util.List.of("sendNow"), backend.calls, "no operation was started");
        assertArrayEquals(new byte[] {6, 0, 0, 0, 7, 0, 0, 0}, backend.takeSent(1).data());
        Status status = Request.Waitall(new Request[] {request})[0];
        assertEquals(1, status.source);
        assertEquals(4, status.tag);
        assertEquals(2, status.Get_count(MPI.INT));
        assertEquals(0, status.index);
        assertTrue(request.Is_null());
    }

    @Test
    void synchronousSendsAndSendsTheRuntimeDeclinesTakeTheOperationPath() {
        backend.sendsNow = true;

        MPI.COMM_WORLD.Issend(new int[] {1}, 0, 1, MPI.INT, 1, 0).Cancel();
        MPI.COMM_WORLD.Isend(new int[] {2}, 0, 1, MPI.INT, 0, 0).Wait();
        MPI.COMM_WORLD.Send(new int[] {3}, 0, 1, MPI.INT, 1, 0);

        assertEquals(java.util.List.of("send", "send", "sendNow"), backend.calls);
    }

    @Test
    void messagesFromOneSenderWithOneTagArriveInOrder() {
        for (int i = 0; i < 5; i++) {
            MPI.COMM_WORLD.Send(new int[] {i}, 0, 1, MPI.INT, 0, 0);
        }
        int[] value = new int[1];
        for (int i = 0; i < 5; i++) {
            MPI.COMM_WORLD.Recv(value, 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            assertEquals(i, value[0]);
        }
    }

    @Test
    void receivesSelectByTag() {
        MPI.COMM_WORLD.Send(new int[] {1}, 0, 1, MPI.INT, 0, 1);
        MPI.COMM_WORLD.Send(new int[] {2}, 0, 1, MPI.INT, 0, 2);
        int[] value = new int[1];

        assertEquals(2, MPI.COMM_WORLD.Recv(value, 0, 1, MPI.INT, 0, 2).tag);
        assertEquals(2, value[0]);
    }

    @Test
    void probeReportsTheMessageWithoutReceivingIt() {
        backend.later(() -> backend.deliver(1, 6, WORLD, new byte[12]));

        Status probed = MPI.COMM_WORLD.Probe(MPI.ANY_SOURCE, MPI.ANY_TAG);

        assertEquals(1, probed.source);
        assertEquals(6, probed.tag);
        assertEquals(3, probed.Get_count(MPI.INT));
        assertEquals(3, MPI.COMM_WORLD.Recv(new int[3], 0, 3, MPI.INT, 1, 6).Get_count(MPI.INT));
    }

    @Test
    void iprobeIsNullWhenNothingMatches() {
        backend.deliver(1, 6, WORLD, new byte[4]);

        assertNull(MPI.COMM_WORLD.Iprobe(1, 7));
        assertEquals(6, MPI.COMM_WORLD.Iprobe(1, 6).tag);
    }

    @Test
    void rsendDeliversLikeSend() {
        Request receive = MPI.COMM_WORLD.Irecv(new int[1], 0, 1, MPI.INT, 0, 0);
        MPI.COMM_WORLD.Rsend(new int[] {4}, 0, 1, MPI.INT, 0, 0);

        assertEquals(1, receive.Wait().Get_count(MPI.INT));
    }
}
