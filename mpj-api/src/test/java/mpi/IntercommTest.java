package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mpj.api.CommSpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Intercommunicators as seen by world rank 0 of a job of 3, alone in its group (COMM_SELF) and leading it; the
 * test plays the remote group, world ranks 2 and 1 in that order, by delivering its leader's messages.
 */
class IntercommTest extends MpiTestSupport {
    private static final int TAG = 9;
    private static final int[] REMOTE = {2, 1};
    /** The contexts of the first intercommunicator, on pair 2 (the first after WORLD's and SELF's). */
    private static final int P2P = 4;
    private static final int COLL = 5;

    @BeforeEach
    void startAsRankZeroOfThree() {
        start(3, 0);
    }

    /** What the remote leader sends in a handshake: its group, its free pairs (all but {@code taken}), a flag. */
    private static byte[] remoteDescription(int[] members, boolean flag, int... taken) {
        ContextIds ids = new ContextIds();
        for (int pair : taken) {
            ids.reserve(pair);
        }
        return bytes(new LeaderHandshake.Side(members, ids.freeBits(), flag).encoded());
    }

    private static byte[] bytes(int... ints) {
        ByteBuffer buffer = ByteBuffer.allocate(4 * ints.length).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asIntBuffer().put(ints);
        return buffer.array();
    }

    private Intercomm connect(int[] remote, int... takenRemotely) {
        backend.deliver(remote[0], TAG, WORLD, remoteDescription(remote, false, takenRemotely));
        return MPI.COMM_WORLD.Create_intercomm(MPI.COMM_SELF, 0, remote[0], TAG);
    }

    @Test
    void theContextPairIsTheLowestFreeInBothGroups() {
        Intercomm inter = connect(REMOTE, 2);

        assertEquals(6, inter.spec().pointToPointContext());
        assertEquals(7, inter.spec().collectiveContext());
    }

    @Test
    void theLeaderSendsItsGroupToTheRemoteLeaderOnThePeerCommunicatorWithTheTag() {
        connect(REMOTE);

        LoopbackBackend.Message sent = backend.takeSent(2);
        assertEquals(TAG, sent.tag());
        assertEquals(WORLD, sent.context());
        int[] ints = new int[sent.data().length / 4];
        ByteBuffer.wrap(sent.data()).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(ints);
        assertArrayEquals(new int[] {0}, LeaderHandshake.Side.decoded(ints).members());
    }

    @Test
    void sizeRankAndGroupDescribeTheLocalGroupAndRemoteCallsTheOther() {
        Intercomm inter = connect(REMOTE);

        assertTrue(inter.Test_inter());
        assertFalse(MPI.COMM_WORLD.Test_inter());
        assertEquals(1, inter.Size());
        assertEquals(0, inter.Rank());
        assertEquals(MPI.IDENT, Group.Compare(MPI.COMM_SELF.Group(), inter.Group()));
        assertEquals(2, inter.Remote_size());
        Group remote = inter.Remote_group();
        assertEquals(MPI.UNDEFINED, remote.Rank());
        assertArrayEquals(new int[] {2, 1},
                Group.Translate_ranks(remote, new int[] {0, 1}, MPI.COMM_WORLD.Group()));
    }

    @Test
    void pointToPointRanksNameTheRemoteGroup() {
        Intercomm inter = connect(REMOTE);
        backend.takeSent(2);

        inter.Send(new int[] {42}, 0, 1, MPI.INT, 1, 3);

        LoopbackBackend.Message sent = backend.takeSent(1);
        assertEquals(P2P, sent.context());
        assertArrayEquals(bytes(42), sent.data());
    }

    @Test
    void aReceiveFromAnySourceReportsTheRemoteRank() {
        Intercomm inter = connect(REMOTE);
        backend.deliver(1, 3, P2P, bytes(17));

        int[] got = new int[1];
        Status status = inter.Recv(got, 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);

        assertEquals(17, got[0]);
        assertEquals(1, status.source);
    }

    @Test
    void aRankOutsideTheRemoteGroupIsARankError() {
        Intercomm inter = connect(REMOTE);

        MPIException e = assertMpiError(MPI.ERR_RANK, () -> inter.Send(new int[1], 0, 1, MPI.INT, 2, 0));
        assertTrue(e.getMessage().contains("remote group"), e.getMessage());
        assertMpiError(MPI.ERR_RANK, () -> inter.Recv(new int[1], 0, 1, MPI.INT, 2, 0));
    }

    @Test
    void aLocalCommThatIsNotAnIntracommunicatorIsACommError() {
        Intercomm inter = connect(REMOTE);

        assertMpiError(MPI.ERR_COMM, () -> MPI.COMM_WORLD.Create_intercomm(null, 0, 2, TAG));
        assertMpiError(MPI.ERR_COMM, () -> MPI.COMM_WORLD.Create_intercomm(inter, 0, 2, TAG));
    }

    @Test
    void leadersOutsideTheirCommunicatorsAreRankErrors() {
        assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Create_intercomm(MPI.COMM_SELF, 1, 2, TAG));
        assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Create_intercomm(MPI.COMM_SELF, 0, 3, TAG));
        assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Create_intercomm(MPI.COMM_SELF, 0, MPI.PROC_NULL, TAG));
    }

    @Test
    void aRemoteLeaderInTheLocalGroupIsARankErrorFoundBeforeAnyMessage() {
        MPIException e = assertMpiError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.Create_intercomm(MPI.COMM_SELF, 0, 0, TAG));

        assertTrue(e.getMessage().contains("local group"), e.getMessage());
        assertEquals(0, backend.outboxSize());
    }

    @Test
    void aBadTagIsATagError() {
        assertMpiError(MPI.ERR_TAG, () -> MPI.COMM_WORLD.Create_intercomm(MPI.COMM_SELF, 0, 2, -5));
    }

    @Test
    void groupsSharingAProcessAreAGroupError() {
        assertMpiError(MPI.ERR_GROUP, () -> connect(new int[] {2, 0}));
        // nothing was reserved: the next intercommunicator still gets pair 2
        assertEquals(P2P, connect(REMOTE).spec().pointToPointContext());
    }

    @Test
    void noPairFreeInBothGroupsIsReported() {
        int[] everyPair = new int[ContextIds.PAIRS - 2];
        for (int i = 0; i < everyPair.length; i++) {
            everyPair[i] = i + 2;
        }
        MPIException e = assertMpiError(MPI.ERR_OTHER, () -> connect(REMOTE, everyPair));
        assertTrue(e.getMessage().contains("both groups"), e.getMessage());
    }

    @Test
    void mergePutsTheLowGroupFirst() {
        Intercomm inter = connect(REMOTE);
        backend.deliver(2, CommSpec.API_TAG, COLL, remoteDescription(REMOTE, true));
        backend.deliver(2, CommSpec.API_TAG, COLL, remoteDescription(REMOTE, false));

        Intracomm low = inter.Merge(false);
        Intracomm high = inter.Merge(true);

        assertEquals(0, low.Rank());
        assertArrayEquals(new int[] {0, 2, 1}, low.spec().worldRanks());
        assertEquals(2, high.Rank());
        assertArrayEquals(new int[] {2, 1, 0}, high.spec().worldRanks());
        assertEquals(6, low.spec().pointToPointContext());
    }

    @Test
    void mergeWithTheSameFlagPutsTheGroupOfTheLowerLeaderFirst() {
        Intercomm inter = connect(REMOTE);
        backend.deliver(2, CommSpec.API_TAG, COLL, remoteDescription(REMOTE, true));

        assertArrayEquals(new int[] {0, 2, 1}, inter.Merge(true).spec().worldRanks());
    }

    @Test
    void dupHasItsOwnContextAndTheSameGroups() {
        Intercomm inter = connect(REMOTE);
        backend.deliver(2, CommSpec.API_TAG, COLL, remoteDescription(REMOTE, false));

        Intercomm copy = inter.Dup();

        assertEquals(6, copy.spec().pointToPointContext());
        assertEquals(2, copy.Remote_size());
        assertEquals(MPI.CONGRUENT, Comm.Compare(inter, copy));
        assertEquals(MPI.UNEQUAL, Comm.Compare(inter, MPI.COMM_SELF));
    }

    @Test
    void freeReleasesThePairAndLaterUseIsACommError() {
        Intercomm inter = connect(REMOTE);
        inter.Free();

        assertMpiError(MPI.ERR_COMM, inter::Remote_size);
        assertMpiError(MPI.ERR_COMM, inter::Barrier);
        assertEquals(P2P, connect(REMOTE).spec().pointToPointContext());
    }

    @Test
    void theBroadcastRootSendsToTheRemoteLeaderOnTheCollectiveContext() {
        Intercomm inter = connect(REMOTE);
        backend.takeSent(2);

        inter.Bcast(new int[] {5, 6}, 0, 2, MPI.INT, MPI.ROOT);
        inter.Bcast(new int[] {7}, 0, 1, MPI.INT, MPI.PROC_NULL);

        LoopbackBackend.Message sent = backend.takeSent(2);
        assertEquals(COLL, sent.context());
        assertEquals(CommSpec.API_TAG, sent.tag());
        assertArrayEquals(bytes(5, 6), sent.data());
        assertEquals(0, backend.outboxSize());
    }

    @Test
    void theReceivingLeaderGetsTheRootsItems() {
        Intercomm inter = connect(REMOTE);
        backend.deliver(1, CommSpec.API_TAG, COLL, bytes(5, 6));

        int[] got = new int[2];
        inter.Bcast(got, 0, 2, MPI.INT, 1);

        assertArrayEquals(new int[] {5, 6}, got);
    }

    @Test
    void aBroadcastOfFewerItemsThanExpectedIsACountError() {
        Intercomm inter = connect(REMOTE);
        backend.deliver(1, CommSpec.API_TAG, COLL, bytes(5));

        assertMpiError(MPI.ERR_COUNT, () -> inter.Bcast(new int[2], 0, 2, MPI.INT, 1));
    }

    @Test
    void rootsOtherThanRootProcNullOrARemoteRankAreRootErrors() {
        Intercomm inter = connect(REMOTE);

        assertMpiError(MPI.ERR_ROOT, () -> inter.Bcast(new int[1], 0, 1, MPI.INT, 2));
        assertMpiError(MPI.ERR_ROOT, () -> inter.Bcast(new int[1], 0, 1, MPI.INT, MPI.ANY_SOURCE));
    }

    @Test
    void theBarrierLeaderSwapsAMessageWithTheRemoteLeader() {
        Intercomm inter = connect(REMOTE);
        backend.takeSent(2);
        backend.deliver(2, CommSpec.API_TAG, COLL, new byte[1]);

        inter.Barrier();

        LoopbackBackend.Message sent = backend.takeSent(2);
        assertEquals(COLL, sent.context());
        assertEquals(CommSpec.API_TAG, sent.tag());
    }
}
