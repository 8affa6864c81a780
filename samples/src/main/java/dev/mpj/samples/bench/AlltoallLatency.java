package dev.mpj.samples.bench;

import mpi.Intracomm;
import mpi.MPI;

/**
 * {@code Alltoall} latency, as OSU's {@code osu_alltoall}: every rank sends {@code size} bytes to every rank, 4 B to
 * 1 MiB per block by default. {@code ./mpjrun -np 4 alltoall [-m [MIN:]MAX] [-f] [-i ITERATIONS] [-x WARMUP]
 * [--csv FILE|-]}
 */
public final class AlltoallLatency {
    private AlltoallLatency() {
    }

    public static void main(String[] args) throws Exception {
        CollectiveLatency.main("alltoall", "Alltoall", 4, (comm, maxSize) -> {
            byte[] send = new byte[CollectiveLatency.fromEveryRank(comm, maxSize)];
            return new Alltoalls(comm, send, new byte[send.length]);
        }, args);
    }

    private record Alltoalls(Intracomm comm, byte[] send, byte[] recv) implements CollectiveLatency.Call {
        @Override
        public void run(int size) {
            comm.Alltoall(send, 0, size, MPI.BYTE, recv, 0, size, MPI.BYTE);
        }
    }
}
