package dev.mpj.samples.bench;

import mpi.Intracomm;

/**
 * {@code Barrier} latency, as OSU's {@code osu_barrier}: one row, the average time of a barrier.
 * {@code ./mpjrun -np 4 barrier [-f] [-i ITERATIONS] [-x WARMUP] [--csv FILE|-]}
 */
public final class BarrierLatency {
    private BarrierLatency() {
    }

    public static void main(String[] args) throws Exception {
        CollectiveLatency.main("barrier", "Barrier", 0, (comm, maxSize) -> new Barriers(comm), args);
    }

    private record Barriers(Intracomm comm) implements CollectiveLatency.Call {
        @Override
        public void run(int size) {
            comm.Barrier();
        }
    }
}
