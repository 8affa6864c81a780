package dev.mpj.samples.bench;

import dev.mpj.runtime.MpjRuntime;
import mpi.MPI;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

/**
 * Times Barrier, Bcast (root 0), Allreduce (doubles, SUM) and Allgather (bytes per rank) of several sizes as a
 * job's settings select them,
 * to compare the node-aware collectives with the flat ones ({@code MPJ_COLL_HIERARCHICAL=on|off}). Each call is
 * timed over {@code -i} iterations after a warm-up of a fifth as many; the figure is the slowest rank's mean.
 * <pre>
 * ./mpjrun -np 8 --fake-nodes 2 -env MPJ_COLL_HIERARCHICAL on -cp samples/target/classes \
 *     dev.mpj.samples.bench.NodeAwareTiming [-i 200] [--sizes 8,1024,65536,1048576]
 *     [--ops barrier,bcast,allreduce,allgather] [--csv FILE]
 * </pre>
 * CSV columns: mode, np, nodes, op, bytes (per rank for allgather), us (appended, so runs of several modes
 * collect in one file).
 */
public final class NodeAwareTiming {
    private NodeAwareTiming() {
    }

    public static void main(String[] args) throws IOException {
        MPI.Init(args);
        int iterations = 200;
        int[] sizes = {8, 1024, 65536, 1048576};
        String csv = null;
        List<String> ops = List.of("barrier", "bcast", "allreduce", "allgather");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-i" -> iterations = Integer.parseInt(args[++i]);
                case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--csv" -> csv = args[++i];
                case "--ops" -> ops = List.of(args[++i].split(","));
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (use -i N, --sizes A,B,..., --ops barrier,bcast,allreduce,allgather, --csv FILE)");
            }
        }
        String mode = System.getenv().getOrDefault("MPJ_COLL_HIERARCHICAL", "auto");
        int nodes = MpjRuntime.current().nodeMap().nodeCount();
        int np = MPI.COMM_WORLD.Size();
        BenchTable table = new BenchTable("op", "bytes", "mode", "us");
        if (ops.contains("barrier")) {
            table.row("barrier", 0, mode, time(iterations, () -> MPI.COMM_WORLD.Barrier()));
        }
        for (int bytes : ops.contains("bcast") ? sizes : new int[0]) {
            byte[] data = new byte[bytes];
            table.row("bcast", bytes, mode,
                    time(scaled(iterations, bytes), () -> MPI.COMM_WORLD.Bcast(data, 0, bytes, MPI.BYTE, 0)));
        }
        for (int bytes : ops.contains("allreduce") ? sizes : new int[0]) {
            int count = Math.max(1, bytes / 8);
            double[] in = new double[count];
            double[] out = new double[count];
            table.row("allreduce", count * 8, mode, time(scaled(iterations, bytes),
                    () -> MPI.COMM_WORLD.Allreduce(in, 0, out, 0, count, MPI.DOUBLE, MPI.SUM)));
        }
        for (int bytes : ops.contains("allgather") ? sizes : new int[0]) {
            byte[] mine = new byte[bytes];
            byte[] all = new byte[bytes * np];
            table.row("allgather", bytes, mode, time(scaled(iterations, bytes * np),
                    () -> MPI.COMM_WORLD.Allgather(mine, 0, bytes, MPI.BYTE, all, 0, bytes, MPI.BYTE)));
        }
        if (MPI.COMM_WORLD.Rank() == 0) {
            System.out.println("# np " + np + ", nodes " + nodes + ", mpj.coll.hierarchical=" + mode);
            table.print(System.out);
            if (csv != null) {
                StringBuilder lines = new StringBuilder();
                for (Object[] r : table.rows()) {
                    lines.append(String.format("%s,%d,%s,%s,%s,%.2f%n", mode, np, nodes, r[0], r[1], (Double) r[3]));
                }
                Files.writeString(Path.of(csv), lines, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        }
        MPI.Finalize();
    }

    /** Fewer iterations for long messages, so every row takes about as long. */
    private static int scaled(int iterations, int bytes) {
        return Math.max(10, (int) Math.min(iterations, iterations * 65536L / Math.max(bytes, 1)));
    }

    /** The slowest rank's mean time of one call, in microseconds (the same value at every rank). */
    private static double time(int iterations, Runnable call) {
        for (int i = 0; i < Math.max(1, iterations / 5); i++) {
            call.run();
        }
        MPI.COMM_WORLD.Barrier();
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            call.run();
        }
        double[] mean = {(System.nanoTime() - start) / 1e3 / iterations};
        double[] slowest = new double[1];
        MPI.COMM_WORLD.Allreduce(mean, 0, slowest, 0, 1, MPI.DOUBLE, MPI.MAX);
        return slowest[0];
    }
}
