package dev.mpj.samples.bench;

import mpi.Intracomm;
import mpi.MPI;

/**
 * {@code Bcast} latency from rank 0, as OSU's {@code osu_bcast}, 4 B to 1 MiB by default.
 * {@code ./mpjrun -np 4 bcast [-m [MIN:]MAX] [-f] [-i ITERATIONS] [-x WARMUP] [--csv FILE|-]}
 */
public final class BcastLatency {
    private BcastLatency() {
    }

    public static void main(String[] args) throws Exception {
        CollectiveLatency.main("bcast", "Bcast", 4, (comm, maxSize) -> new Bcasts(comm, new byte[maxSize]), args);
    }

    private record Bcasts(Intracomm comm, byte[] buffer) implements CollectiveLatency.Call {
        @Override
        public void run(int size) {
            comm.Bcast(buffer, 0, size, MPI.BYTE, 0);
        }
    }
}
