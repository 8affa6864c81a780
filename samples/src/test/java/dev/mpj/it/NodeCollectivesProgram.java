package dev.mpj.it;

import dev.mpj.runtime.MpjRuntime;
import mpi.Intracomm;
import mpi.MPI;

import java.util.ArrayList;
import java.util.List;

import static dev.mpj.it.CollectivesProgram.COMPOSE;
import static dev.mpj.it.CollectivesProgram.composed;
import static dev.mpj.it.CollectivesProgram.ints;
import static dev.mpj.it.CollectivesProgram.maps;
import static dev.mpj.it.CollectivesProgram.same;
import static dev.mpj.it.CollectivesProgram.sums;

/**
 * The small collectives on communicators other than the world, where the node-local path must hold as well as the
 * point-to-point one: a duplicate, a split whose members are the world's in reverse order, more communicators at
 * once than the node has channels (the later ones run over point-to-point), the same communicators freed and made
 * again on the contexts they had, and two threads, each with a communicator of its own, at once. Prints how many
 * collectives ran through the node segment, for the harness to check the path was taken.
 */
public final class NodeCollectivesProgram {
    private static final int[] SIZES = {1, 1000};

    private NodeCollectivesProgram() {
    }

    public static void main(String[] args) throws InterruptedException {
        MPI.Init_thread(args, MPI.THREAD_MULTIPLE);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.Rank();
        int size = world.Size();
        Intracomm dup = world.Dup();
        Intracomm reversed = world.Split(rank % 2, size - rank);
        for (Intracomm c : new Intracomm[] {world, dup, reversed}) {
            everyCollective(c, 3);
        }
        for (int round = 0; round < 2; round++) {
            List<Intracomm> many = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                many.add(world.Dup());
            }
            for (Intracomm c : many) {
                everyCollective(c, 1);
            }
            for (Intracomm c : many) {
                c.Free();
            }
        }
        Intracomm a = world.Dup();
        Intracomm b = world.Dup();
        Throwable[] failed = new Throwable[2];
        Thread other = new Thread(() -> {
            try {
                everyCollective(b, 300);
            } catch (Throwable t) {
                failed[1] = t;
            }
        });
        other.start();
        try {
            everyCollective(a, 300);
        } catch (Throwable t) {
            failed[0] = t;
        }
        other.join();
        for (Throwable t : failed) {
            if (t != null) {
                throw new IllegalStateException("rank " + rank + ": " + t, t);
            }
        }
        world.Barrier();
        System.out.println("node collectives rank " + rank + ": "
                + MpjRuntime.current().sharedMemoryCollectiveCalls());
        Check.done("node collectives");
        MPI.Finalize();
    }

    /** Every node-local collective on {@code c}, {@code rounds} times, each result checked. */
    static void everyCollective(Intracomm c, int rounds) {
        int rank = c.Rank();
        int size = c.Size();
        for (int round = 0; round < rounds; round++) {
            for (int n : SIZES) {
                int[] sum = new int[n];
                c.Allreduce(ints(rank, n), 0, sum, 0, n, MPI.INT, MPI.SUM);
                same(sums(size - 1, n), sum, "Allreduce SUM n=" + n + " size=" + size);
                int[] map = new int[2 * n];
                c.Allreduce(maps(rank, n), 0, map, 0, n, MPI.INT2, COMPOSE);
                same(composed(size - 1, n), map, "Allreduce user op in rank order n=" + n);
                int root = round % size;
                int[] r = new int[2 * n];
                c.Reduce(maps(rank, n), 0, r, 0, n, MPI.INT2, COMPOSE, root);
                if (rank == root) {
                    same(composed(size - 1, n), r, "Reduce user op n=" + n + " root=" + root);
                }
                int[] b = rank == root ? ints(root, n) : new int[n];
                c.Bcast(b, 0, n, MPI.INT, root);
                same(ints(root, n), b, "Bcast n=" + n + " root=" + root);
                int[] all = new int[n * size];
                c.Allgather(ints(rank, n), 0, n, MPI.INT, all, 0, n, MPI.INT);
                for (int v = 0; v < size; v++) {
                    int[] got = java.util.Arrays.copyOfRange(all, v * n, (v + 1) * n);
                    same(ints(v, n), got, "Allgather block " + v + " n=" + n);
                }
                int block = Math.max(1, n / size);
                int[] in = new int[block * size];
                c.Alltoall(ints(rank, block * size), 0, block, MPI.INT, in, 0, block, MPI.INT);
                for (int v = 0; v < size; v++) {
                    same(java.util.Arrays.copyOfRange(ints(v, block * size), rank * block, (rank + 1) * block),
                            java.util.Arrays.copyOfRange(in, v * block, (v + 1) * block),
                            "Alltoall block " + block + " from " + v);
                }
                double[] max = new double[1];
                c.Allreduce(new double[] {-rank}, 0, max, 0, 1, MPI.DOUBLE, MPI.MAX);
                Check.that(max[0] == 0.0, "Allreduce MAX double");
                c.Barrier();
            }
        }
    }
}
