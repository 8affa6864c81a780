package dev.mpj.it;

import static dev.mpj.it.CollectivesProgram.COMPOSE;
import static dev.mpj.it.CollectivesProgram.composed;
import static dev.mpj.it.CollectivesProgram.ints;
import static dev.mpj.it.CollectivesProgram.maps;
import static dev.mpj.it.CollectivesProgram.same;
import static dev.mpj.it.CollectivesProgram.sums;

import java.util.Arrays;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * The non-blocking collectives: every one's values for several sizes (up to past the eager threshold) and roots;
 * several outstanding on one communicator, with a blocking collective and point-to-point traffic among them,
 * completed in another order than started; completion by Test loops while the rank computes; progress made by
 * another call's wait; argument errors and a count mismatch reported at completion. Each rank checks its results.
 */
public final class NonBlockingCollectivesProgram {
    private static final int[] SIZES = {0, 1, 1000, 70_000};
    private static Intracomm world;
    private static int rank;
    private static int size;

    private NonBlockingCollectivesProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.Rank();
        size = world.Size();
        for (int n : SIZES) {
            everyCollective(n);
        }
        outstandingCompletedInAnotherOrder();
        testLoopsWhileComputing();
        anotherCallsWaitAdvancesACollective();
        errors();
        world.Barrier();
        Check.done("nbc");
        MPI.Finalize();
    }

    static int[] roots() {
        return new int[] {0, size - 1, size / 2};
    }

    static void everyCollective(int n) {
        world.Ibarrier().Wait();
        for (int root : roots()) {
            int[] b = rank == root ? ints(root, n) : new int[n];
            world.Ibcast(b, 0, n, MPI.INT, root).Wait();
            same(ints(root, n), b, "Ibcast n=" + n + " root=" + root);
            int[] sum = new int[n + 2];
            world.Ireduce(ints(rank, n), 0, sum, 2, n, MPI.INT, MPI.SUM, root).Wait();
            if (rank == root) {
                same(sums(size - 1, n), Arrays.copyOfRange(sum, 2, n + 2), "Ireduce SUM n=" + n + " root=" + root);
            }
            int[] map = new int[2 * n];
            world.Ireduce(maps(rank, n), 0, map, 0, n, MPI.INT2, COMPOSE, root).Wait();
            if (rank == root) {
                same(composed(size - 1, n), map, "Ireduce user op in rank order n=" + n + " root=" + root);
            }
        }
        int[] sum = new int[n];
        world.Iallreduce(ints(rank, n), 0, sum, 0, n, MPI.INT, MPI.SUM).Wait();
        same(sums(size - 1, n), sum, "Iallreduce SUM n=" + n);
        int[] inPlace = ints(rank, n);
        world.Iallreduce(MPI.IN_PLACE, 0, inPlace, 0, n, MPI.INT, MPI.SUM).Wait();
        same(sums(size - 1, n), inPlace, "Iallreduce IN_PLACE n=" + n);
        int[] map = new int[2 * n];
        world.Iallreduce(maps(rank, n), 0, map, 0, n, MPI.INT2, COMPOSE).Wait();
        same(composed(size - 1, n), map, "Iallreduce user op in rank order n=" + n);
        double[] max = new double[n];
        double[] mine = new double[n];
        for (int i = 0; i < n; i++) {
            mine[i] = (rank == size - 1 ? 2.5 : 1.5) * i;
        }
        world.Iallreduce(mine, 0, max, 0, n, MPI.DOUBLE, MPI.MAX).Wait();
        for (int i = 0; i < n; i++) {
            Check.that(max[i] == 2.5 * i || size == 1, "Iallreduce MAX double at " + i);
        }
        int[] all = new int[n * size + 3];
        world.Iallgather(ints(rank, n), 0, n, MPI.INT, all, 3, n, MPI.INT).Wait();
        for (int r = 0; r < size; r++) {
            same(ints(r, n), Arrays.copyOfRange(all, 3 + r * n, 3 + r * n + n), "Iallgather n=" + n + " block " + r);
        }
        int block = Math.max(1, n / size);
        int[] out = ints(rank, block * size);
        int[] in = new int[block * size];
        world.Ialltoall(out, 0, block, MPI.INT, in, 0, block, MPI.INT).Wait();
        for (int r = 0; r < size; r++) {
            same(Arrays.copyOfRange(ints(r, block * size), rank * block, rank * block + block),
                    Arrays.copyOfRange(in, r * block, r * block + block), "Ialltoall block " + block + " from " + r);
        }
    }

    /**
     * Six collectives outstanding at once, two of them the same kind with different data, then a blocking
     * Allreduce and a ring of point-to-point messages, then the requests completed last-started first.
     */
    static void outstandingCompletedInAnotherOrder() {
        int n = 20_000;
        int[] sumA = new int[n];
        int[] sumB = new int[n];
        int[] b = rank == size - 1 ? ints(77, n) : new int[n];
        int[] all = new int[n * size];
        int[] map = new int[2 * n];
        Request[] started = {
                world.Iallreduce(ints(rank, n), 0, sumA, 0, n, MPI.INT, MPI.SUM),
                world.Ibcast(b, 0, n, MPI.INT, size - 1),
                world.Ibarrier(),
                world.Iallgather(ints(rank, n), 0, n, MPI.INT, all, 0, n, MPI.INT),
                world.Iallreduce(ints(rank + 5, n), 0, sumB, 0, n, MPI.INT, MPI.SUM),
                world.Ireduce(maps(rank, n), 0, map, 0, n, MPI.INT2, COMPOSE, 0),
        };
        int[] blocking = new int[1];
        world.Allreduce(new int[] {rank + 1}, 0, blocking, 0, 1, MPI.INT, MPI.SUM);
        Check.equal((long) size * (size + 1) / 2, blocking[0], "blocking Allreduce among outstanding ones");
        int[] note = new int[1];
        Request recv = world.Irecv(note, 0, 1, MPI.INT, (rank - 1 + size) % size, 9);
        world.Send(new int[] {rank}, 0, 1, MPI.INT, (rank + 1) % size, 9);
        recv.Wait();
        Check.equal((rank - 1 + size) % size, note[0], "point-to-point among outstanding collectives");
        for (int i = started.length - 1; i >= 3; i--) {
            started[i].Wait();
        }
        Request.Waitall(new Request[] {started[2], started[0], started[1]});
        same(sums(size - 1, n), sumA, "first outstanding Iallreduce");
        int[] shifted = new int[n];
        for (int r = 0; r < size; r++) {
            int[] v = ints(r + 5, n);
            for (int i = 0; i < n; i++) {
                shifted[i] += v[i];
            }
        }
        same(shifted, sumB, "second outstanding Iallreduce");
        same(ints(77, n), b, "outstanding Ibcast");
        for (int r = 0; r < size; r++) {
            same(ints(r, n), Arrays.copyOfRange(all, r * n, r * n + n), "outstanding Iallgather block " + r);
        }
        if (rank == 0) {
            same(composed(size - 1, n), map, "outstanding Ireduce");
        }
    }

    /** Starts an Iallreduce past the eager threshold and an Ialltoall, then computes, testing between slices. */
    static void testLoopsWhileComputing() {
        int n = 70_000;
        int[] sum = new int[n];
        Request allreduce = world.Iallreduce(ints(rank, n), 0, sum, 0, n, MPI.INT, MPI.SUM);
        Status done = null;
        double work = 0;
        for (int slice = 0; done == null; slice++) {
            work += compute(slice);
            done = allreduce.Test();
        }
        Check.that(work != 0, "the rank computed");
        same(sums(size - 1, n), sum, "Iallreduce completed by Test");
        int block = 3_000;
        int[] in = new int[block * size];
        Request[] both = {
                world.Ialltoall(ints(rank, block * size), 0, block, MPI.INT, in, 0, block, MPI.INT),
                world.Ibarrier(),
        };
        Status[] statuses = null;
        for (int slice = 0; statuses == null; slice++) {
            work += compute(slice);
            statuses = Request.Testall(both);
        }
        Check.that(both[0].Is_null() && both[1].Is_null(), "completed requests are null");
        for (int r = 0; r < size; r++) {
            same(Arrays.copyOfRange(ints(r, block * size), rank * block, rank * block + block),
                    Arrays.copyOfRange(in, r * block, r * block + block), "Ialltoall completed by Testall from " + r);
        }
    }

    /** A slice of the program's own work between two tests. */
    private static double compute(int slice) {
        double x = slice;
        for (int i = 1; i < 20_000; i++) {
            x += Math.sqrt(i + slice) / i;
        }
        return x;
    }

    /**
     * Rank 0 starts a barrier, then blocks in a receive that rank 1 satisfies only after its barrier has
     * completed: rank 0's part of the barrier can only advance while it waits for something else.
     */
    static void anotherCallsWaitAdvancesACollective() {
        Request barrier = world.Ibarrier();
        if (size > 1 && rank == 0) {
            int[] note = new int[1];
            world.Recv(note, 0, 1, MPI.INT, 1, 21);
            Check.equal(42, note[0], "the message sent after the barrier");
        } else if (rank == 1) {
            barrier.Wait();
            world.Send(new int[] {42}, 0, 1, MPI.INT, 0, 21);
        }
        barrier.Wait();
    }

    static void errors() {
        expect(MPI.ERR_ROOT, "Ibcast to a root outside the communicator",
                () -> world.Ibcast(new int[1], 0, 1, MPI.INT, size));
        expect(MPI.ERR_OP, "Iallreduce of BAND on doubles",
                () -> world.Iallreduce(new double[1], 0, new double[1], 0, 1, MPI.DOUBLE, MPI.BAND));
        expect(MPI.ERR_TYPE, "Iallgather of MPI.OBJECT",
                () -> world.Iallgather(new Object[1], 0, 1, MPI.OBJECT, new Object[size], 0, 1, MPI.OBJECT));
        expect(MPI.ERR_BUFFER, "Ialltoall into a short buffer",
                () -> world.Ialltoall(new int[size], 0, 1, MPI.INT, new int[size - 1], 0, 1, MPI.INT));
        if (size > 1) {
            // rank 0 sends and expects blocks of two items, the others of one: every member's Wait fails
            int block = rank == 0 ? 2 : 1;
            Request r = world.Ialltoall(new int[block * size], 0, block, MPI.INT, new int[block * size], 0, block,
                    MPI.INT);
            try {
                r.Wait();
                Check.that(false, "a count mismatch in Ialltoall was not reported");
            } catch (MPIException e) {
                int c = e.getErrorClass();
                Check.that(c == (rank == 0 ? MPI.ERR_COUNT : MPI.ERR_TRUNCATE),
                        "error class of a count mismatch: " + e.getMessage());
            }
            Check.that(r.Is_null(), "a failed collective request is complete");
        }
        // the communicator still works after the errors
        int[] sum = new int[1];
        world.Iallreduce(new int[] {1}, 0, sum, 0, 1, MPI.INT, MPI.SUM).Wait();
        Check.equal(size, sum[0], "Iallreduce after the errors");
    }

    private static void expect(int errorClass, String what, Runnable call) {
        try {
            call.run();
            Check.that(false, what + " did not fail");
        } catch (MPIException e) {
            Check.equal(errorClass, e.getErrorClass(), "error class of " + what);
        }
    }
}
