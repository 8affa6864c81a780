package dev.mpj.it;

import mpi.MPI;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints the CPUs a rank may run on and the node's CPUs mpjrun passed it, after an allreduce of the ranks' numbers
 * and before a finalize, both of which the node's ranks must take on one path:
 * {@code rank R cpus LIST nodeCpus N sum S}.
 */
public final class CpuProbeProgram {
    private CpuProbeProgram() {
    }

    public static void main(String[] args) throws IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int[] sum = new int[1];
        MPI.COMM_WORLD.Allreduce(new int[]{rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        System.out.println("rank " + rank + " cpus " + allowedCpus() + " nodeCpus " + System.getenv("MPJ_NODE_CPUS")
                + " sum " + sum[0]);
        MPI.Finalize();
    }

    /** The {@code Cpus_allowed_list} of this process, as Linux writes it. */
    static String allowedCpus() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "unknown";
    }
}
