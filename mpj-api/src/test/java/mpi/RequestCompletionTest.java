package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RequestCompletionTest extends MpiTestSupport {
    @BeforeEach
    void startTwoRanks() {
        start(2, 0);
    }

    private Request receiveFromPeer(int[] buffer, int tag) {
        return MPI.COMM_WORLD.Irecv(buffer, 0, buffer.length, MPI.INT, 1, tag);
    }

    private void peerSends(int tag, int value) {
        backend.deliver(1, tag, WORLD, new byte[] {(byte) value, 0, 0, 0});
    }

    @Test
    void aCompletedRequestBecomesNull() {
        Request receive = receiveFromPeer(new int[1], 0);
        assertFalse(receive.Is_null());
        peerSends(0, 1);

        receive.Wait();

        assertTrue(receive.Is_null());
    }

    @Test
    void waitingOnANullRequestReturnsAnEmptyStatusAtOnce() {
        Status status = MPI.REQUEST_NULL.Wait();

        assertEquals(MPI.ANY_SOURCE, status.source);
        assertEquals(MPI.ANY_TAG, status.tag);
        assertEquals(0, status.Get_count(MPI.INT));
        assertTrue(MPI.REQUEST_NULL.Is_null());
        assertNotNull(MPI.REQUEST_NULL.Test());
        assertEquals(0, backend.awaits);
    }

    @Test
    void waitingTwiceGivesAnEmptyStatusTheSecondTime() {
        Request receive = receiveFromPeer(new int[1], 4);
        peerSends(4, 1);

        assertEquals(4, receive.Wait().tag);
        assertEquals(MPI.ANY_TAG, receive.Wait().tag);
    }

    @Test
    void waitLetsTheRuntimeDriveProgressUntilTheMessageArrives() {
        int[] buffer = new int[1];
        Request receive = receiveFromPeer(buffer, 0);
        backend.later(() -> peerSends(0, 9));

        receive.Wait();

        assertEquals(9, buffer[0]);
        assertEquals(1, backend.awaits);
    }

    @Test
    void testIsNullUntilCompleteAndPollsOnce() {
        Request receive = receiveFromPeer(new int[1], 0);

        assertNull(receive.Test());
        assertEquals(1, backend.polls);
        peerSends(0, 3);
        Status status = receive.Test();

        assertEquals(1, status.source);
        assertTrue(receive.Is_null());
    }

    @Test
    void anErrorOfTheOperationIsRaisedWhenTheRequestCompletes() {
        Request receive = receiveFromPeer(new int[1], 0);
        backend.deliver(1, 0, WORLD, new byte[8]);

        assertMpiError(MPI.ERR_TRUNCATE, receive::Wait);
        assertTrue(receive.Is_null(), "the failed request is complete");
    }

    @Test
    void aCancelledReceiveCompletesMarkedCancelled() {
        int[] buffer = {5};
        Request receive = receiveFromPeer(buffer, 0);

        receive.Cancel();
        Status status = receive.Wait();

        assertTrue(status.Test_cancelled());
        assertEquals(5, buffer[0]);
    }

    @Test
    void waitallReturnsStatusesInOrderWithEmptyOnesForNullEntries() {
        int[] a = new int[1];
        int[] b = new int[1];
        Request[] requests = {receiveFromPeer(a, 1), null, MPI.REQUEST_NULL, receiveFromPeer(b, 2)};
        backend.later(() -> peerSends(2, 20));
        backend.later(() -> peerSends(1, 10));

        Status[] statuses = Request.Waitall(requests);

        assertEquals(4, statuses.length);
        assertEquals(1, statuses[0].tag);
        assertEquals(MPI.ANY_TAG, statuses[1].tag);
        assertEquals(MPI.ANY_TAG, statuses[2].tag);
        assertEquals(2, statuses[3].tag);
        assertArrayEquals(new int[] {10, 20}, new int[] {a[0], b[0]});
        assertTrue(requests[0].Is_null() && requests[3].Is_null());
    }

    @Test
    void waitanyCompletesOneRequestAndGivesItsIndex() {
        Request first = receiveFromPeer(new int[1], 1);
        Request second = receiveFromPeer(new int[1], 2);
        Request[] requests = {null, first, second};
        backend.later(() -> peerSends(2, 0));

        Status status = Request.Waitany(requests);

        assertEquals(2, status.index);
        assertEquals(2, status.tag);
        assertTrue(second.Is_null());
        assertFalse(first.Is_null());
    }

    @Test
    void waitanyWithNoActiveRequestReturnsAnEmptyStatusWithUndefinedIndex() {
        Status status = Request.Waitany(new Request[] {null, MPI.REQUEST_NULL});

        assertEquals(MPI.UNDEFINED, status.index);
        assertEquals(MPI.ANY_SOURCE, status.source);
        assertEquals(0, backend.awaits);
    }

    @Test
    void waitsomeReturnsEveryCompletedRequestWithItsIndex() {
        Request[] requests = {receiveFromPeer(new int[1], 1), null, receiveFromPeer(new int[1], 2),
                receiveFromPeer(new int[1], 3)};
        peerSends(3, 0);
        peerSends(1, 0);

        Status[] done = Request.Waitsome(requests);

        assertEquals(2, done.length);
        assertEquals(0, done[0].index);
        assertEquals(3, done[1].index);
        assertFalse(requests[2].Is_null());
    }

    @Test
    void waitsomeWaitsForAtLeastOne() {
        Request[] requests = {receiveFromPeer(new int[1], 1)};
        backend.later(() -> peerSends(1, 0));

        assertEquals(1, Request.Waitsome(requests).length);
    }

    @Test
    void waitsomeAndTestsomeWithNoActiveRequestReturnAnEmptyArrayAtOnce() {
        Request[] none = {null, MPI.REQUEST_NULL};

        assertEquals(0, Request.Waitsome(none).length);
        assertEquals(0, Request.Testsome(none).length);
        assertEquals(0, Request.Waitsome(new Request[0]).length);
        assertEquals(0, backend.awaits);
    }

    @Test
    void testsomeReturnsAnEmptyArrayWhenNothingHasCompleted() {
        Request[] requests = {receiveFromPeer(new int[1], 1), null};

        assertEquals(0, Request.Testsome(requests).length);
        peerSends(1, 0);
        Status[] done = Request.Testsome(requests);

        assertEquals(1, done.length);
        assertEquals(0, done[0].index);
    }

    @Test
    void testallIsNullAndCompletesNothingUnlessAllHaveCompleted() {
        Request one = receiveFromPeer(new int[1], 1);
        Request two = receiveFromPeer(new int[1], 2);
        Request[] requests = {one, null, two};
        peerSends(1, 0);

        assertNull(Request.Testall(requests));
        assertFalse(one.Is_null(), "a partial Testall completes no request");
        peerSends(2, 0);
        Status[] all = Request.Testall(requests);

        assertEquals(3, all.length);
        assertEquals(1, all[0].tag);
        assertEquals(MPI.ANY_TAG, all[1].tag);
        assertEquals(2, all[2].tag);
        assertTrue(one.Is_null() && two.Is_null());
    }

    @Test
    void testanyGivesTheIndexOfACompletedRequestOrNull() {
        Request[] requests = {receiveFromPeer(new int[1], 1), receiveFromPeer(new int[1], 2)};

        assertNull(Request.Testany(requests));
        peerSends(2, 0);
        Status status = Request.Testany(requests);

        assertEquals(1, status.index);
        assertEquals(MPI.UNDEFINED, Request.Testany(new Request[] {null}).index);
    }

    @Test
    void waitallCompletesEveryRequestBeforeRaisingTheFirstError() {
        Request failing = receiveFromPeer(new int[1], 1);
        Request fine = receiveFromPeer(new int[1], 2);
        backend.deliver(1, 1, WORLD, new byte[8]);
        peerSends(2, 0);

        MPIException e = assertMpiError(MPI.ERR_TRUNCATE, () -> Request.Waitall(new Request[] {failing, fine}));

        assertTrue(failing.Is_null() && fine.Is_null());
        assertNotNull(e);
    }

    @Test
    void aNullRequestArrayIsARequestError() {
        assertMpiError(MPI.ERR_REQUEST, () -> Request.Waitall(null));
        assertMpiError(MPI.ERR_REQUEST, () -> Request.Testany(null));
    }

    @Test
    void aSynchronousSendCompletesOnlyOnceMatched() {
        Request send = MPI.COMM_WORLD.Issend(new int[] {1}, 0, 1, MPI.INT, 1, 0);

        assertNull(send.Test());
        backend.takeSent(1);

        assertSame(1, send.Test().source, "a send's status names its destination");
    }
}
