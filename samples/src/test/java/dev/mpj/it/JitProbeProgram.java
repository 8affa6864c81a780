package dev.mpj.it;

import mpi.MPI;

import java.lang.management.ManagementFactory;
import java.util.stream.Collectors;

/**
 * Prints the per-method compile thresholds a rank JVM was started with: {@code rank R scaled P,Q} (the patterns
 * of its {@code CompileThresholdScaling} commands, {@code none} without), after a round of the message path.
 */
public final class JitProbeProgram {
    private static final String COMMAND = "-XX:CompileCommand=CompileThresholdScaling,";

    private JitProbeProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int[] one = {1};
        int[] sum = new int[1];
        MPI.COMM_WORLD.Allreduce(one, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        String scaled = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith(COMMAND)).map(a -> a.substring(COMMAND.length()))
                .collect(Collectors.joining(";"));
        System.out.println("rank " + MPI.COMM_WORLD.Rank() + " of " + sum[0] + " scaled "
                + (scaled.isEmpty() ? "none" : scaled));
        MPI.Finalize();
    }
}
