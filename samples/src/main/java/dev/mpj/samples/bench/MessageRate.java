package dev.mpj.samples.bench;

import mpi.MPI;

import java.util.List;

/**
 * Aggregate bandwidth and message rate of pairs of ranks, as OSU's {@code osu_mbw_mr}: rank r of the first half
 * streams windows of 64 non-blocking sends to rank r + np/2 (with an odd np the last rank only takes part in the
 * barriers), and the pairs' rates are summed. 1 B to 4 MiB by default; {@code -m 8:8} is the classic 8-byte message
 * rate. {@code ./mpjrun -np 2 msgrate [-m [MIN:]MAX] [-i ITERATIONS] [-x WARMUP] [--csv FILE|-]}
 */
public final class MessageRate {
    private MessageRate() {
    }

    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int pairs = MPI.COMM_WORLD.Size() / 2;
        BenchOptions o = BenchOptions.forPairOfRanks(rest, "msgrate", 1, 4 << 20, 100, 10);
        OsuReport report = new OsuReport("mpj Multiple Bandwidth / Message Rate Test (OSU style), " + pairs
                + " pair(s), window " + SendWindow.WINDOW, true, List.of("MB/s", "Messages/s"),
                List.of("mb_s", "messages_s"), System.out);
        if (rank == 0) {
            report.header();
        }
        boolean sender = rank < pairs;
        boolean receiver = rank >= pairs && rank < 2 * pairs;
        int peer = sender ? rank + pairs : rank - pairs;
        byte[] buffer = new byte[o.maxSize];
        SendWindow window = new SendWindow();
        double[] rate = new double[1];
        double[] total = new double[1];
        for (int size = Math.max(1, o.minSize); size <= o.maxSize; size *= 2) {
            int iterations = o.iterationsFor(size);
            int warmup = o.warmupFor(size);
            MPI.COMM_WORLD.Barrier();
            double seconds = sender || receiver ? window.stream(buffer, size, peer, sender, warmup, iterations) : 0;
            rate[0] = sender ? (double) SendWindow.WINDOW * iterations / seconds : 0;
            MPI.COMM_WORLD.Reduce(rate, 0, total, 0, 1, MPI.DOUBLE, MPI.SUM, 0);
            if (rank == 0) {
                report.row(size, total[0] * size / 1e6, total[0]);
            }
        }
        if (rank == 0) {
            report.csv(o.csv);
        }
        MPI.Finalize();
    }
}
