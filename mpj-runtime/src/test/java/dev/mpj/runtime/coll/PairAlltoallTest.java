package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.FoldRoom;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static dev.mpj.runtime.coll.PairFoldTest.both;
import static dev.mpj.runtime.coll.PairFoldTest.bothFailWith;
import static dev.mpj.runtime.coll.TestVectors.assertSame;
import static dev.mpj.runtime.coll.TestVectors.of;
import static dev.mpj.runtime.coll.TestVectors.zeros;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A pair's alltoall through the node's {@link FoldRoom} lands each member's blocks where they belong, in one piece
 * and in several, at offsets into larger buffers, call after call and between allreduces through the same slots;
 * members that pass different counts both fail; a revoked communicator's wait ends.
 */
@Timeout(60)
class PairAlltoallTest {
    private static final int CAPACITY = FoldRoom.CAPACITY;
    /** Bytes before each member's send and receive vectors in their buffers. */
    private static final int OFFSET = 12;

    private final ByteBuffer region = ByteBuffer.allocateDirect((int) FoldRoom.length(2));
    private final ProgressEngine[] engines = {new ProgressEngine(0, Settings.defaults()),
            new ProgressEngine(1, Settings.defaults())};

    private PairSlots[] pair() {
        return new PairSlots[] {PairFoldTest.slots(region, engines[0], 0, 3),
                PairFoldTest.slots(region, engines[1], 1, 3)};
    }

    /** The shortest block, one piece short of the regions, one region, a piece more, an odd piece and four. */
    @ParameterizedTest
    @ValueSource(ints = {PairAlltoall.MIN_BLOCK, CAPACITY - 4, CAPACITY, CAPACITY + 4, 2 * CAPACITY + 12,
            4 * CAPACITY})
    void eachBlockLandsInTheOtherMembersBlockOfItsRank(int block) throws Exception {
        PairSlots[] slots = pair();
        PairAlltoall[] pair = {new PairAlltoall(slots[0]), new PairAlltoall(slots[1])};
        for (int call = 0; call < 3; call++) {
            int seed = call;
            ByteBuffer[] send = {at(OFFSET, of(0, 2 * block, seed)), at(OFFSET, of(1, 2 * block, seed))};
            ByteBuffer[] recv = {at(OFFSET, zeros(2 * block)), at(OFFSET, zeros(2 * block))};
            both(r -> pair[r].alltoall(send[r], recv[r]));
            for (int r = 0; r < 2; r++) {
                for (int from = 0; from < 2; from++) {
                    assertSame(Bytes.range(of(from, 2 * block, seed), r * block, (r + 1) * block),
                            Bytes.range(recv[r], from * block, (from + 1) * block),
                            "call " + call + ": rank " + r + "'s block from " + from);
                }
                assertSame(of(r, 2 * block, seed), send[r], "rank " + r + "'s send vector");
            }
        }
    }

    /** A member that has landed a call writes the next one while the other still checks the last one's length. */
    @Test
    void callsOfDifferentLengthsFollowEachOtherWithoutWaitingForTheOther() throws Exception {
        PairSlots[] slots = pair();
        PairAlltoall[] pair = {new PairAlltoall(slots[0]), new PairAlltoall(slots[1])};
        int[] blocks = {PairAlltoall.MIN_BLOCK, 4 * PairAlltoall.MIN_BLOCK, PairAlltoall.MIN_BLOCK + 4, CAPACITY + 4};
        both(r -> {
            for (int call = 0; call < 400; call++) {
                int block = blocks[call % blocks.length];
                ByteBuffer recv = zeros(2 * block);
                pair[r].alltoall(of(r, 2 * block, call), recv);
                assertSame(Bytes.range(of(1 - r, 2 * block, call), r * block, (r + 1) * block),
                        Bytes.range(recv, (1 - r) * block, (2 - r) * block), "call " + call + " at rank " + r);
            }
        });
    }

    @Test
    void alltoallsAndAllreducesTakeTurnsThroughTheSameSlots() throws Exception {
        PairSlots[] slots = pair();
        PairAlltoall[] exchange = {new PairAlltoall(slots[0]), new PairAlltoall(slots[1])};
        PairFold[] fold = {new PairFold(slots[0]), new PairFold(slots[1])};
        Reduction sum = TestVectors.SUM;
        int shortest = PairAlltoall.MIN_BLOCK + 3; // whole ints, as the allreduce needs
        for (int block : new int[] {2 * CAPACITY + 12, shortest, CAPACITY + 4}) {
            int bytes = 2 * block;
            ByteBuffer[] recv = {zeros(bytes), zeros(bytes)};
            both(r -> exchange[r].alltoall(of(r, bytes, block), recv[r]));
            ByteBuffer[] sums = {zeros(bytes + 4), zeros(bytes + 4)};
            both(r -> fold[r].allreduce(new PackedOperands(sum, of(r, bytes + 4, 5), sums[r]), 4));
            ByteBuffer expected = of(0, bytes + 4, 5);
            sum.apply(of(1, bytes + 4, 5), expected);
            for (int r = 0; r < 2; r++) {
                assertSame(Bytes.range(of(1 - r, bytes, block), r * block, (r + 1) * block),
                        Bytes.range(recv[r], (1 - r) * block, (2 - r) * block), "block " + block + " at rank " + r);
                assertSame(expected, sums[r], "the allreduce after it at rank " + r);
            }
        }
    }

    @Test
    void membersThatPassDifferentCountsBothFail() {
        PairSlots[] slots = pair();
        int[] bytes = {2 * PairAlltoall.MIN_BLOCK, 2 * PairAlltoall.MIN_BLOCK + 8};
        bothFailWith(MPIException.ERR_COUNT, rank -> new PairAlltoall(slots[rank]).alltoall(
                of(rank, bytes[rank], 1), zeros(bytes[rank])));
    }

    @Test
    void aWaitForTheOtherMemberEndsWhenTheCollectivesAreRevoked() {
        engines[0].setThreadLevel(MPI.THREAD_MULTIPLE); // the revocation comes from this thread while another waits
        PairAlltoall alone = new PairAlltoall(PairFoldTest.slots(region, engines[0], 0, 3));
        CompletableFuture<?> call = CompletableFuture.runAsync(() -> alone.alltoall(
                of(0, 2 * PairAlltoall.MIN_BLOCK, 1), zeros(2 * PairAlltoall.MIN_BLOCK)));
        engines[0].revoke(3, new int[] {0}, "a member failed");
        ExecutionException e = assertThrows(ExecutionException.class, call::get);
        assertEquals(engines[0].revocationError(3).getMessage(),
                assertInstanceOf(MPIException.class, e.getCause()).getMessage(), "the revocation's error");
    }

    /** {@code data} behind {@code offset} bytes of another buffer: a view whose position is not 0. */
    private static ByteBuffer at(int offset, ByteBuffer data) {
        ByteBuffer b = ByteBuffer.allocate(offset + data.remaining());
        b.position(offset);
        b.put(data.duplicate());
        return b.position(offset);
    }
}
