package dev.mpj.it;

import mpi.MPI;
import mpi.MPIException;

/**
 * The last rank passes four fifths of the count the others pass to the collective {@code args[0]}
 * ({@code bcast}, {@code reduce}, {@code allreduce}, {@code gather}), then every rank calls a barrier. Both counts
 * select the same algorithm, so some rank receives a block of the wrong size and detects the mismatch (counts
 * that select different algorithms can leave every rank waiting for a message nobody sends, which no rank sees). With {@code args[1]} =
 * {@code catch}, each rank catches the MPIException, prints {@code caught rank R class C: message}, checks that
 * the communicator's collectives stay revoked and that point-to-point still works, and finalizes; with
 * {@code uncaught} the exception ends the job.
 */
public final class CollectiveErrorProgram {
    private static final int COUNT = 1000;

    private CollectiveErrorProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int count = rank == size - 1 ? COUNT * 4 / 5 : COUNT;
        if (!"catch".equals(args[1])) {
            collective(args[0], count);
            MPI.COMM_WORLD.Barrier();
            MPI.Finalize();
            return;
        }
        try {
            collective(args[0], count);
            MPI.COMM_WORLD.Barrier();
            throw new IllegalStateException("rank " + rank + ": the mismatched " + args[0] + " raised nothing");
        } catch (MPIException e) {
            System.out.println("caught rank " + rank + " class " + e.getErrorClass() + ": " + e.getMessage());
        }
        try {
            MPI.COMM_WORLD.Barrier();
            throw new IllegalStateException("rank " + rank + ": a barrier after the failed collective succeeded");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_REVOKED, e.getErrorClass(), "error class of a later collective");
        }
        int[] token = {rank};
        int[] got = new int[1];
        MPI.COMM_WORLD.Sendrecv(token, 0, 1, MPI.INT, (rank + 1) % size, 5,
                got, 0, 1, MPI.INT, (rank + size - 1) % size, 5);
        Check.equal((rank + size - 1) % size, got[0], "point-to-point after the failed collective");
        MPI.Finalize();
    }

    private static void collective(String name, int count) {
        int[] send = new int[count];
        int[] recv = new int[count * MPI.COMM_WORLD.Size()];
        switch (name) {
            case "bcast" -> MPI.COMM_WORLD.Bcast(send, 0, count, MPI.INT, 0);
            case "reduce" -> MPI.COMM_WORLD.Reduce(send, 0, recv, 0, count, MPI.INT, MPI.SUM, 0);
            case "allreduce" -> MPI.COMM_WORLD.Allreduce(send, 0, recv, 0, count, MPI.INT, MPI.SUM);
            case "gather" -> MPI.COMM_WORLD.Gather(send, 0, count, MPI.INT, recv, 0, count, MPI.INT, 0);
            default -> throw new IllegalArgumentException(name);
        }
    }
}
