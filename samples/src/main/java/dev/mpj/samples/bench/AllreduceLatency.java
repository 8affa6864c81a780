package dev.mpj.samples.bench;

import mpi.Intracomm;
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
            return new Allreduces(comm, send, new float[send.length]);
        }, args);
    }

    private record Allreduces(Intracomm comm, float[] send, float[] recv) implements CollectiveLatency.Call {
        @Override
        public void run(int size) {
            comm.Allreduce(send, 0, recv, 0, size / Float.BYTES, MPI.FLOAT, MPI.SUM);
        }
    }
}
