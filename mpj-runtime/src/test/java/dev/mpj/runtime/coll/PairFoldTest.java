package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.api.Reduction;
import dev.mpj.runtime.config.CollectiveAlgorithms.Allreduce;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.FoldRoom;
import dev.mpj.runtime.node.NodeMap;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static dev.mpj.runtime.coll.DataMovementTest.forcing;
import static dev.mpj.runtime.coll.TestVectors.assertSame;
import static dev.mpj.runtime.coll.TestVectors.of;
import static dev.mpj.runtime.coll.TestVectors.zeros;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A pair's long allreduce through the node's {@link FoldRoom} gives Rabenseifner's bits (the same halves, the same
 * operand order), in place and apart, in one step or several; members that pass different counts both fail; a
 * revoked communicator's wait ends; the room serves one communicator of two members of its node.
 */
@Timeout(60)
class PairFoldTest {
    /** Declared commutative, yet {@code 3·in + inout}: a combination in the other order gives other values. */
    private static final Reduction ORDERED = TestVectors.commutativeInts((in, inout) -> {
        ByteBuffer a = in.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer b = inout.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < a.remaining(); i += 4) {
            b.putInt(b.position() + i, 3 * a.getInt(a.position() + i) + b.getInt(b.position() + i));
        }
    });
    private static final int[] WORLD = {0, 1};

    private final ByteBuffer region = ByteBuffer.allocateDirect((int) FoldRoom.length(2));
    private final ProgressEngine[] engines = {new ProgressEngine(0, Settings.defaults()),
            new ProgressEngine(1, Settings.defaults())};

    private PairSlots slots(int rank, int context) {
        return slots(region, engines[rank], rank, context);
    }

    /** Member {@code rank}'s slots of a pair on context {@code context} in the fold room {@code region}. */
    static PairSlots slots(ByteBuffer region, ProgressEngine engine, int rank, int context) {
        PairFoldRoom room = new PairFoldRoom(region, engine, NodeMap.blocks(2, 1), rank);
        return room.claim(new CommSpec(context - 1, context, WORLD, rank));
    }

    private PairFold member(int rank, int context) {
        return new PairFold(slots(rank, context));
    }

    /** Odd item counts, one step short of the room's regions, and two steps whose second is a few items. */
    @ParameterizedTest
    @ValueSource(ints = {12, 4 * 40_001, 2 * FoldRoom.CAPACITY, 2 * FoldRoom.CAPACITY + 12, 4 * FoldRoom.CAPACITY + 4})
    void givesRabenseifnersBitsInPlaceAndApart(int bytes) throws Exception {
        ByteBuffer[] expected = new ByteBuffer[2];
        new ThreadedJob(2, forcing(Allreduce.RABENSEIFNER)).run((coll, comm) -> {
            ByteBuffer recv = zeros(bytes);
            coll.allreduce(comm, new PackedOperands(ORDERED, of(comm.rank(), bytes, 7), recv), ORDERED);
            expected[comm.rank()] = recv;
        });
        PairFold[] pair = {member(0, 3), member(1, 3)};
        ByteBuffer[] operand = {of(0, bytes, 7), of(1, bytes, 7)};
        ByteBuffer[] apart = {zeros(bytes), zeros(bytes)};
        both(r -> pair[r].allreduce(new PackedOperands(ORDERED, operand[r], apart[r]), 4));
        ByteBuffer[] inPlace = {of(0, bytes, 7), of(1, bytes, 7)};
        both(r -> pair[r].allreduce(new PackedOperands(ORDERED, inPlace[r], inPlace[r]), 4));
        for (int r = 0; r < 2; r++) {
            assertSame(expected[r], apart[r], "rank " + r + " apart");
            assertSame(expected[r], inPlace[r], "rank " + r + " in place");
            assertSame(of(r, bytes, 7), operand[r], "rank " + r + "'s operand");
        }
    }

    @Test
    void membersThatPassDifferentCountsBothFail() {
        PairFold[] pair = {member(0, 3), member(1, 3)};
        int[] bytes = {4096, 4100};
        bothFailWith(MPIException.ERR_COUNT, rank -> pair[rank].allreduce(
                new PackedOperands(ORDERED, of(rank, bytes[rank], 1), zeros(bytes[rank])), 4));
    }

    @Test
    void aWaitForTheOtherMemberEndsWhenTheCollectivesAreRevoked() {
        engines[0].setThreadLevel(MPI.THREAD_MULTIPLE); // the revocation comes from this thread while another waits
        PairFold alone = member(0, 3);
        CompletableFuture<?> call = CompletableFuture.runAsync(() -> alone.allreduce(
                new PackedOperands(ORDERED, of(0, 4096, 1), zeros(4096)), 4));
        engines[0].revoke(3, new int[] {0}, "a member failed");
        ExecutionException e = assertThrows(ExecutionException.class, call::get);
        assertEquals(engines[0].revocationError(3).getMessage(),
                assertInstanceOf(MPIException.class, e.getCause()).getMessage(), "the revocation's error");
    }

    @Test
    void theRoomServesOneCommunicatorOfTwoMembersOfItsNode() {
        assertNotNull(slots(0, 3));
        assertNotNull(slots(1, 3), "the same communicator's other member");
        assertNull(slots(0, 5), "another communicator");
        PairFoldRoom twoNodes = new PairFoldRoom(ByteBuffer.allocateDirect((int) FoldRoom.length(2)), engines[0],
                NodeMap.blocks(4, 2), 0);
        assertNull(twoNodes.claim(new CommSpec(2, 3, new int[] {0, 2}, 0)), "members on two nodes");
        assertNull(twoNodes.claim(new CommSpec(2, 3, new int[] {0, 1, 2}, 0)), "three members");
    }

    @Test
    void aFailedCollectiveRetiresTheRoom() {
        PairFoldRoom room = new PairFoldRoom(region, engines[0], NodeMap.blocks(2, 1), 0);
        CommSpec comm = new CommSpec(2, 3, WORLD, 0);
        PairSlots slots = room.claim(comm);
        room.retire(comm);
        assertEquals(false, slots.usable());
        assertNull(room.claim(comm), "the same communicator again");
    }

    /** Runs {@code body} for both members at once, member 1 on a thread of its own. */
    static void both(MemberCall body) throws Exception {
        CompletableFuture<?> other = CompletableFuture.runAsync(() -> body.run(1));
        body.run(0);
        other.get();
    }

    /** Both members make their call at once, and each fails with an {@link MPIException} of {@code errorClass}. */
    static void bothFailWith(int errorClass, MemberCall body) {
        CompletableFuture<?>[] calls = new CompletableFuture<?>[2];
        for (int r = 0; r < 2; r++) {
            int rank = r;
            calls[r] = CompletableFuture.runAsync(() -> body.run(rank));
        }
        for (CompletableFuture<?> call : calls) {
            ExecutionException e = assertThrows(ExecutionException.class, call::get);
            assertEquals(errorClass, assertInstanceOf(MPIException.class, e.getCause()).getErrorClass());
        }
    }

    interface MemberCall {
        void run(int rank);
    }
}
