package dev.mpj.it;

import mpi.MPI;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A job that waits to be poked: after {@code MPI.Init} rank 0 writes its {@code PMI_PORT} to the file
 * {@code args[0]}, every rank waits until the file {@code args[1]} exists, then the ranks sum rank+1 with an
 * allreduce, print "rank R sum S" and finalize (a PMI barrier, so the PMI server must still serve them).
 */
public final class PokedProgram {
    private PokedProgram() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        if (rank == 0) {
            Path port = Path.of(args[0]);
            Path partial = Path.of(args[0] + ".partial");
            Files.writeString(partial, System.getenv("PMI_PORT"));
            Files.move(partial, port, StandardCopyOption.ATOMIC_MOVE);
        }
        Path go = Path.of(args[1]);
        for (long deadline = System.nanoTime() + 90_000_000_000L; !Files.exists(go); ) {
            Check.that(System.nanoTime() < deadline, "the go file appears");
            Thread.sleep(20);
        }
        int[] sum = new int[1];
        MPI.COMM_WORLD.Allreduce(new int[] {rank + 1}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        System.out.println("rank " + rank + " sum " + sum[0]);
        MPI.Finalize();
    }
}
