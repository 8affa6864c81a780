package dev.mpj.samples.bench;

import mpi.Intracomm;
import mpi.MPI;

/**
 * {@code Allgather} latency, as OSU's {@code osu_allgather}: every rank contributes {@code size} bytes, 4 B to 1 MiB
 * by default. {@code ./mpjrun -np 4 allgather [-m [MIN:]MAX] [-f] [-i ITERATIONS] [-x WARMUP] [--csv FILE|-]}
 */
public final class AllgatherLatency {
    private AllgatherLatency() {
    }

    public static void main(String[] args) throws Exception {
        CollectiveLatency.main("allgather", "Allgather", 4, (comm, maxSize) ->
                new Allgathers(comm, new byte[maxSize], new byte[CollectiveLatency.fromEveryRank(comm, maxSize)]),
                args);
    }

    private record Allgathers(Intracomm comm, byte[] send, byte[] recv) implements CollectiveLatency.Call {
        @Override
        public void run(int size) {
            comm.Allgather(send, 0, size, MPI.BYTE, recv, 0, size, MPI.BYTE);
        }
    }
}
