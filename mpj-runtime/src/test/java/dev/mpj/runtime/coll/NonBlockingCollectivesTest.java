package dev.mpj.runtime.coll;

import dev.mpj.api.AllComplete;
import dev.mpj.api.CommSpec;
import dev.mpj.api.Operation;
import dev.mpj.api.Reduction;
import dev.mpj.api.SendMode;
import dev.mpj.runtime.engine.ProgressEngine;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.mpj.runtime.coll.DataMovementTest.roots;
import static dev.mpj.runtime.coll.TestVectors.COMPOSE;
import static dev.mpj.runtime.coll.TestVectors.SUM;
import static dev.mpj.runtime.coll.TestVectors.assertSame;
import static dev.mpj.runtime.coll.TestVectors.of;
import static dev.mpj.runtime.coll.TestVectors.reduced;
import static dev.mpj.runtime.coll.TestVectors.zeros;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The non-blocking collectives' schedules against the sequential answer for 1 to 8 ranks, with blocks of 0 bytes,
 * one item, and past the (test) eager threshold; several outstanding at once; progress made by any wait of the
 * engine; errors reported by the operation.
 */
@Timeout(120)
class NonBlockingCollectivesTest {
    /** Multiples of 8 (both test reductions divide them): none, one item, 1 KiB, past the eager threshold. */
    static final int[] SIZES = {0, 8, 1024, 9_000};

    static Stream<Integer> counts() {
        return IntStream.rangeClosed(1, 8).boxed();
    }

    /** What one rank runs, with its non-blocking collectives and its engine. */
    interface RankBody {
        void run(Collectives coll, CommSpec comm, NonBlockingCollectives nb, ProgressEngine engine) throws Exception;
    }

    private static void run(int np, RankBody body) {
        ThreadedJob job = new ThreadedJob(np, CollectiveTuning.automatic());
        job.run((coll, comm) -> body.run(coll, comm, job.nonBlocking(comm.rank()), job.engine(comm.rank())));
    }

    private static void await(ProgressEngine engine, Operation op) {
        engine.await(new AllComplete(op));
        assertNull(op.error(), () -> "failed: " + op.error());
    }

    @ParameterizedTest(name = "np={0}")
    @MethodSource("counts")
    void bcastReduceAndAllreduceGiveTheSequentialResult(int np) {
        run(np, (coll, comm, nb, engine) -> {
            int me = comm.rank();
            int seq = 0;
            for (int n : SIZES) {
                for (int root : roots(np)) {
                    ByteBuffer data = me == root ? of(root, n, seq) : zeros(n);
                    await(engine, nb.ibcast(comm, seq, data, root));
                    assertSame(of(root, n, seq), data, "ibcast of " + n + " from " + root);
                    seq++;
                    for (Reduction op : new Reduction[] {SUM, COMPOSE}) {
                        ByteBuffer recv = zeros(n);
                        await(engine, nb.ireduce(comm, seq, of(me, n, seq), recv, op, root));
                        if (me == root) {
                            assertSame(reduced(op, 0, np - 1, n, seq), recv, "ireduce of " + n + " to " + root);
                        }
                        seq++;
                    }
                }
                for (Reduction op : new Reduction[] {SUM, COMPOSE}) {
                    ByteBuffer recv = zeros(n);
                    await(engine, nb.iallreduce(comm, seq, of(me, n, seq), recv, op));
                    assertSame(reduced(op, 0, np - 1, n, seq), recv, "iallreduce of " + n);
                    seq++;
                }
            }
        });
    }

    @ParameterizedTest(name = "np={0}")
    @MethodSource("counts")
    void allgatherAlltoallAndBarrierMoveEveryBlock(int np) {
        run(np, (coll, comm, nb, engine) -> {
            int me = comm.rank();
            int seq = 0;
            for (int block : new int[] {0, 1, 1024, 5_000}) {
                ByteBuffer all = zeros(block * np);
                await(engine, nb.iallgather(comm, seq, of(me, block, seq), all));
                for (int r = 0; r < np; r++) {
                    assertSame(of(r, block, seq), Bytes.range(all, r * block, (r + 1) * block), "block " + r);
                }
                seq++;
                // block j of rank i's send: rank i's vector for seed j
                ByteBuffer send = zeros(block * np);
                for (int j = 0; j < np; j++) {
                    Bytes.copy(of(me, block, 100 + j), send, j * block);
                }
                ByteBuffer recv = zeros(block * np);
                await(engine, nb.ialltoall(comm, seq, send, recv));
                for (int i = 0; i < np; i++) {
                    assertSame(of(i, block, 100 + me), Bytes.range(recv, i * block, (i + 1) * block), "from " + i);
                }
                seq++;
                await(engine, nb.ibarrier(comm, seq++));
            }
        });
    }

    @ParameterizedTest(name = "np={0}")
    @MethodSource("counts")
    void outstandingCollectivesCompletedInReverseOrderKeepTheirOwnData(int np) {
        run(np, (coll, comm, nb, engine) -> {
            int me = comm.rank();
            int k = 6;
            ByteBuffer[] results = new ByteBuffer[k];
            Operation[] ops = new Operation[k];
            for (int i = 0; i < k; i++) {
                results[i] = zeros(9_000);
                ops[i] = nb.iallreduce(comm, i, of(me, 9_000, i), results[i], i % 2 == 0 ? SUM : COMPOSE);
            }
            // a blocking collective in between uses its own tag
            ByteBuffer blocking = zeros(8);
            coll.allreduce(comm, of(me, 8, 99), blocking, SUM);
            assertSame(reduced(SUM, 0, np - 1, 8, 99), blocking, "blocking allreduce");
            for (int i = k - 1; i >= 0; i--) {
                await(engine, ops[i]);
                assertSame(reduced(i % 2 == 0 ? SUM : COMPOSE, 0, np - 1, 9_000, i), results[i], "iallreduce " + i);
            }
        });
    }

    /**
     * Rank 0 starts a barrier and then waits for a message that rank 1 sends only once the barrier has completed
     * there: only if rank 0's wait for that message advances its barrier can either finish.
     */
    @Test
    void anyWaitOfTheEngineAdvancesOutstandingCollectives() {
        run(3, (coll, comm, nb, engine) -> {
            Operation barrier = nb.ibarrier(comm, 0);
            ByteBuffer note = zeros(4);
            if (comm.rank() == 0) {
                Operation r = engine.receive(note, 1, 5, comm.pointToPointContext());
                engine.await(new AllComplete(r));
                assertTrue(barrier.isComplete(), "the barrier completed while rank 0 waited for something else");
            } else {
                await(engine, barrier);
                if (comm.rank() == 1) {
                    engine.await(new AllComplete(engine.send(note, 0, 5, comm.pointToPointContext(),
                            SendMode.STANDARD)));
                }
            }
            await(engine, barrier);
            assertEquals(0, engine.taskCount(), "a finished collective is dropped from the engine");
        });
    }

    @Test
    void pollingAloneCompletesACollective() {
        run(4, (coll, comm, nb, engine) -> {
            ByteBuffer recv = zeros(8);
            Operation op = nb.iallreduce(comm, 0, of(comm.rank(), 8, 1), recv, SUM);
            while (!op.isComplete()) {
                engine.poll();
                LockSupport.parkNanos(100_000);
            }
            assertSame(reduced(SUM, 0, 3, 8, 1), recv, "iallreduce by polling");
        });
    }

    @Test
    void aBlockOfTheWrongSizeIsReportedByTheOperation() {
        run(2, (coll, comm, nb, engine) -> {
            int n = comm.rank() == 0 ? 8 : 4;
            Operation op = nb.iallgather(comm, 0, zeros(n), zeros(2 * n));
            engine.await(new AllComplete(op));
            assertNotNull(op.error(), "rank " + comm.rank() + " sees the mismatch");
            int errorClass = ((MPIException) op.error()).getErrorClass();
            assertTrue(errorClass == MPIException.ERR_COUNT || errorClass == MPIException.ERR_TRUNCATE,
                    "error class " + errorClass);
        });
    }

    @Test
    void argumentErrorsAreRaisedWhenTheCollectiveStarts() {
        run(2, (coll, comm, nb, engine) -> {
            MPIException e = assertThrows(MPIException.class, () -> nb.ibcast(comm, 0, zeros(4), 2));
            assertEquals(MPIException.ERR_ROOT, e.getErrorClass());
            e = assertThrows(MPIException.class, () -> nb.iallreduce(comm, 0, zeros(6), zeros(6), SUM));
            assertEquals(MPIException.ERR_COUNT, e.getErrorClass());
            e = assertThrows(MPIException.class, () -> nb.ialltoall(comm, 0, zeros(3), zeros(3)));
            assertEquals(MPIException.ERR_COUNT, e.getErrorClass());
            assertEquals(0, engine.taskCount(), "nothing started");
            await(engine, nb.ibarrier(comm, 0));
        });
    }

    @Test
    void sequenceNumbersMapToTagsAboveEveryBlockingCollective() {
        assertTrue(NonBlockingCollectives.tagOf(0) > CollectiveKind.values().length);
        assertEquals(NonBlockingCollectives.tagOf(0), NonBlockingCollectives.tagOf(1 << 24));
        assertTrue(NonBlockingCollectives.tagOf(-1) > 0);
    }
}
