package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OSU-style collective benchmarks run by their sample names on 3 ranks (not a power of two), briefly, and
 * print OSU's table: the title, a header of Size (not for barrier) and the four {@code -f} columns, one row per
 * size from 4 B to the {@code -m} maximum with min ≤ avg ≤ max over ranks, then the same rows as CSV.
 */
@Timeout(120)
@Tag("multi-jvm")
class CollectiveBenchmarksIT {
    private static final int NP = 3;
    private static final int ITERATIONS = 3;
    private static final List<Integer> SIZES = List.of(4, 8, 16, 32, 64);
    private static final List<String> VALUE_COLUMNS =
            List.of("Avg Latency(us)", "Min Latency(us)", "Max Latency(us)", "Iterations");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"allreduce", "alltoall", "allgather", "bcast", "barrier"})
    void benchmarkPrintsOneOsuRowPerSizeAndTheSameRowsAsCsv(String sample) {
        boolean sized = !sample.equals("barrier");
        List<String> args = sized
                ? List.of("-m", "64", "-f", "-i", Integer.toString(ITERATIONS), "-x", "1", "--csv", "-")
                : List.of("-f", "-i", Integer.toString(ITERATIONS), "-x", "1", "--csv", "-");
        Job.Result r = Job.np(NP).run(sample, args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r::toString);
        List<String> lines = r.out().lines().toList();
        String op = sample.equals("bcast") ? "Bcast" : Character.toUpperCase(sample.charAt(0)) + sample.substring(1);
        assertEquals("# OSU MPI-style " + op + " Latency Test", lines.get(0), r::toString);
        assertEquals(header(sized), lines.get(1).replaceAll("\\s{2,}", "|"), r::toString);

        int rows = sized ? SIZES.size() : 1;
        for (int i = 0; i < rows; i++) {
            double[] v = numbers(lines.get(2 + i).trim().split(" +"));
            int at = sized ? 1 : 0;
            if (sized) {
                assertEquals(SIZES.get(i), (int) v[0], lines.get(2 + i));
            }
            double avg = v[at], min = v[at + 1], max = v[at + 2];
            assertTrue(min > 0 && min <= avg && avg <= max, lines.get(2 + i));
            assertEquals(ITERATIONS, (int) v[at + 3], lines.get(2 + i));
        }
        assertEquals((sized ? "size," : "") + "avg_us,min_us,max_us,iterations", lines.get(2 + rows), r::toString);
        for (int i = 0; i < rows; i++) {
            String[] csv = lines.get(3 + rows + i).split(",");
            assertEquals(sized ? 5 : 4, csv.length, lines.get(3 + rows + i));
            if (sized) {
                assertEquals(SIZES.get(i).toString(), csv[0]);
            }
        }
        assertEquals(3 + 2 * rows, lines.size(), "nothing else on standard output:\n" + r.out());
    }

    private static String header(boolean sized) {
        return (sized ? "# Size|" : "#|") + String.join("|", VALUE_COLUMNS);
    }

    private static double[] numbers(String[] fields) {
        return Arrays.stream(fields).mapToDouble(Double::parseDouble).toArray();
    }
}
