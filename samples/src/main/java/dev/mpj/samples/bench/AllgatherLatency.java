package dev.mpj.samples.bench;

import mpi.MPI;

/**
 * {@code Allgather} latency, as OSU's {@code osu_allgather}: every rank contributes {@code size} bytes, 4 B to 1 MiB
 * by default. {@code ./mpjrun -np 4 allgather [-m [MIN:]MAX] [-f] [-i ITERATIONS] [-x WARMUP] [--csv FILE|-]}
 */
public final class AllgatherLatency {
    private AllgatherLatency() {
    }

    public static void main(String[] args) throws Exception {
        CollectiveLatency.main("allgather", "Allgather", 4, (comm, maxSize) -> {
            byte[] send = new byte[maxSize];
            byte[] recv = new byte[CollectiveLatency.fromEveryRank(comm, maxSize)];
            return size -> comm.Allgather(send, 0, size, MPI.BYTE, recv, 0, size, MPI.BYTE);
        }, args);
    }
}
