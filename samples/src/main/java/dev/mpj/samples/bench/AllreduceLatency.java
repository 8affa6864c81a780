package dev.mpj.samples.bench;

import mpi.MPI;

/**
 * {@code Allreduce} latency, as OSU's {@code osu_allreduce}: {@code MPI.SUM} over {@code size / 4} floats, 4 B to
 * 1 MiB by default. {@code ./mpjrun -np 4 allreduce [-m [MIN:]MAX] [-f] [-i ITERATIONS] [-x WARMUP] [--csv FILE|-]}
 */
public final class AllreduceLatency {
    private AllreduceLatency() {
    }

    public static void main(String[] args) throws Exception {
        CollectiveLatency.main("allreduce", "Allreduce", Float.BYTES, (comm, maxSize) -> {
            float[] send = new float[maxSize / Float.BYTES];
            float[] recv = new float[send.length];
            return size -> comm.Allreduce(send, 0, recv, 0, size / Float.BYTES, MPI.FLOAT, MPI.SUM);
        }, args);
    }
}
