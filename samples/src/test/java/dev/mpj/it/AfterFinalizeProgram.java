package dev.mpj.it;

import mpi.MPI;

import java.util.List;

/**
 * Exchanges a message with a neighbour, finalizes, and prints the threads that would keep this JVM alive once
 * {@code main} returns: "after finalize rank R: [names]", where the list should be empty.
 */
public final class AfterFinalizeProgram {
    private AfterFinalizeProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int[] in = new int[1];
        MPI.COMM_WORLD.Sendrecv(new int[]{rank}, 0, 1, MPI.INT, (rank + 1) % size, 0,
                in, 0, 1, MPI.INT, (rank - 1 + size) % size, 0);
        Check.equal((rank - 1 + size) % size, in[0], "neighbour's rank");
        MPI.Finalize();
        List<String> alive = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !t.isDaemon() && t != Thread.currentThread() && t.isAlive())
                .map(Thread::getName).sorted().toList();
        System.out.println("after finalize rank " + rank + ": " + alive);
    }
}
