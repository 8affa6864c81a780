package dev.mpj.samples;

import mpi.MPI;

/** Every rank says who and where it is. {@code ./mpjrun -np 4 hello} */
public final class Hello {
    private Hello() {
    }

    public static void main(String[] args) {
        if (JobExit.helpAsked(MPI.Init(args))) {
            JobExit.usage("usage: hello   (every rank prints its rank, the job size and its host)");
        }
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        System.out.println("Hello from rank " + rank + " of " + size + " on " + MPI.Get_processor_name());
        MPI.Finalize();
    }
}
