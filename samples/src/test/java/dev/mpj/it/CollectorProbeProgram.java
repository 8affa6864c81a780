package dev.mpj.it;

import mpi.MPI;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.stream.Collectors;

/** Prints the garbage collector a rank runs, by its collectors' names in order: {@code rank R collectors A,B}. */
public final class CollectorProbeProgram {
    private CollectorProbeProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        String names = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).sorted().collect(Collectors.joining(","));
        System.out.println("rank " + MPI.COMM_WORLD.Rank() + " collectors " + names);
        MPI.Finalize();
    }
}
