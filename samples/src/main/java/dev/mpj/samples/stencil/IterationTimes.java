package dev.mpj.samples.stencil;

import mpi.Intracomm;
import mpi.MPI;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every iteration's halo, update and {@code Allreduce} times of one rank, gathered to rank 0 after the loop and
 * written as CSV, one row per iteration and rank. A rank's halo or {@code Allreduce} time holds both the exchange's
 * own cost and its wait for a partner still in the previous phase; the rank that arrives last waits least, so the
 * {@code *_wait_us} columns give each rank's time beyond the least of that iteration's ranks: what the
 * imbalance cost it, apart from the exchange.
 */
final class IterationTimes {
    static final String HEADER = "iteration,rank,halo_us,update_us,allreduce_us,halo_wait_us,allreduce_wait_us";
    private static final int PHASES = 3;

    private final double[] seconds;

    IterationTimes(int iterations) {
        seconds = new double[iterations * PHASES];
    }

    void record(int iteration, double halo, double update, double allreduce) {
        int at = iteration * PHASES;
        seconds[at] = halo;
        seconds[at + 1] = update;
        seconds[at + 2] = allreduce;
    }

    /** This rank's times, seconds, iteration after iteration (halo, update, {@code Allreduce}). */
    double[] seconds() {
        return seconds;
    }

    /** Gathers every rank's times to rank 0, which writes them to {@code target} (a file, or {@code -}). */
    void write(Intracomm comm, String target) {
        int ranks = comm.Size();
        double[] all = comm.Rank() == 0 ? new double[seconds.length * ranks] : new double[0];
        comm.Gather(seconds, 0, seconds.length, MPI.DOUBLE, all, 0, seconds.length, MPI.DOUBLE, 0);
        if (comm.Rank() != 0) {
            return;
        }
        String text = String.join("\n", rows(all, ranks, seconds.length / PHASES)) + "\n";
        if (target.equals("-")) {
            System.out.print(text);
            System.out.flush();
            return;
        }
        try {
            Files.writeString(Path.of(target), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        }
    }

    /** The header and a row per iteration and rank of {@code gathered} (rank after rank, seconds), in µs. */
    static List<String> rows(double[] gathered, int ranks, int iterations) {
        List<String> rows = new ArrayList<>(1 + ranks * iterations);
        rows.add(HEADER);
        for (int it = 0; it < iterations; it++) {
            double leastHalo = Double.MAX_VALUE;
            double leastAllreduce = Double.MAX_VALUE;
            for (int r = 0; r < ranks; r++) {
                int at = (r * iterations + it) * PHASES;
                leastHalo = Math.min(leastHalo, gathered[at]);
                leastAllreduce = Math.min(leastAllreduce, gathered[at + 2]);
            }
            for (int r = 0; r < ranks; r++) {
                int at = (r * iterations + it) * PHASES;
                rows.add(String.format(Locale.ROOT, "%d,%d,%.1f,%.1f,%.1f,%.1f,%.1f", it, r, gathered[at] * 1e6,
                        gathered[at + 1] * 1e6, gathered[at + 2] * 1e6, (gathered[at] - leastHalo) * 1e6,
                        (gathered[at + 2] - leastAllreduce) * 1e6));
            }
        }
        return rows;
    }
}
