package dev.mpj.samples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs {@link InitBench} under {@code mpjrun} over a grid of process counts, fake node counts and strategies,
 * and writes {@code init-sweep.csv} and two charts of the exchange time (median rank): by node count at the
 * largest process count ({@code init-sweep-nodes.png}), and by processes per node at the largest node count
 * ({@code init-sweep-ppn.png}) — the shape of figures 5 and 6 of the locality-aware PMI paper.
 * <pre>
 *   java -cp … dev.mpj.samples.bench.InitSweep [--np 2,4,8,16,32,64] [--nodes 1,2,4,8]
 *        [--exchange simple,shm,roots] [--repeat 1] [--out DIR] [--from CSV]
 * </pre>
 * {@code --from} only draws the charts of an earlier sweep's CSV.
 * Each run is a separate job; with {@code --repeat k} the median of the k runs is kept. Rank JVMs get
 * {@code -Xmx64m -XX:TieredStopAtLevel=1} unless {@code MPJ_JVM_OPTS} says otherwise, and an init timeout of 600 s
 * unless {@code MPJ_INIT_TIMEOUT} does. A point that fails is reported on stderr and left out.
 */
public final class InitSweep {
    /** One row of the CSV. */
    record Row(int np, int nodes, String exchange, double min, double max, double avg, double median,
               double exchangeMedian, long puts, long gets) {
        String csv() {
            return String.format(Locale.ROOT, "%d,%d,%d,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d", np, nodes,
                    (np + nodes - 1) / nodes, exchange, min, max, avg, median, exchangeMedian, puts, gets);
        }
    }

    private InitSweep() {
    }

    public static void main(String[] args) throws Exception {
        List<Integer> nps = List.of(2, 4, 8, 16, 32, 64);
        List<Integer> nodeCounts = List.of(1, 2, 4, 8);
        List<String> exchanges = List.of("simple", "shm", "roots");
        int repeat = 1;
        Path out = Path.of(".");
        Path from = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--np" -> nps = ints(args[i + 1]);
                case "--nodes" -> nodeCounts = ints(args[i + 1]);
                case "--exchange" -> exchanges = List.of(args[i + 1].split(","));
                case "--repeat" -> repeat = Integer.parseInt(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                case "--from" -> from = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Files.createDirectories(out);
        if (from != null) {
            drawFrom(from, out, exchanges);
            return;
        }
        List<Row> rows = new ArrayList<>();
        StringBuilder csv = new StringBuilder("np,nodes,ppn,exchange,min_ms,max_ms,avg_ms,median_ms,"
                + "exchange_median_ms,puts,gets\n");
        for (int np : nps) {
            for (int nodes : nodeCounts) {
                if (nodes > np) {
                    continue;
                }
                for (String exchange : exchanges) {
                    Row row;
                    try {
                        row = median(run(np, nodes, exchange, repeat));
                    } catch (IllegalStateException e) {
                        // one failed point (say a timeout on an overloaded machine) must not lose the rest
                        System.err.println(e.getMessage().lines().findFirst().orElse("") + " (left out)");
                        continue;
                    }
                    rows.add(row);
                    csv.append(row.csv()).append('\n');
                    System.out.println(row.csv());
                    Files.writeString(out.resolve("init-sweep.csv"), csv);
                }
            }
        }
        draw(rows, out, exchanges);
    }

    /** Draws the charts of an earlier sweep's CSV (e.g. one stopped before the end). */
    private static void drawFrom(Path csv, Path out, List<String> exchanges) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (String line : Files.readAllLines(csv)) {
            if (!line.isBlank() && Character.isDigit(line.charAt(0))) {
                String[] f = line.split(",");
                rows.add(new Row(Integer.parseInt(f[0]), Integer.parseInt(f[1]), f[3], d(f[4]), d(f[5]), d(f[6]),
                        d(f[7]), d(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10].trim())));
            }
        }
        draw(rows, out, exchanges);
    }

    private static void draw(List<Row> rows, Path out, List<String> exchanges) throws IOException {
        int maxNp = rows.stream().mapToInt(Row::np).max().orElse(1);
        int maxNodes = rows.stream().filter(r -> r.np() == maxNp).mapToInt(Row::nodes).max().orElse(1);
        chart(rows, exchanges, "nodes", "Exchange time by node count, np = " + maxNp, r -> r.np() == maxNp,
                r -> r.nodes()).write(out.resolve("init-sweep-nodes.png"));
        chart(rows, exchanges, "processes per node", "Exchange time by processes per node, " + maxNodes + " nodes",
                r -> r.nodes() == maxNodes, r -> (r.np() + r.nodes() - 1) / r.nodes())
                .write(out.resolve("init-sweep-ppn.png"));
    }

    private static List<Integer> ints(String list) {
        List<Integer> values = new ArrayList<>();
        for (String s : list.split(",")) {
            values.add(Integer.parseInt(s.trim()));
        }
        return values;
    }

    private static List<Row> run(int np, int nodes, String exchange, int repeat) throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < repeat; i++) {
            String text = SweepJob.run("np " + np + " nodes " + nodes + " " + exchange, np, nodes, InitBench.class,
                    "--exchange", exchange, "--csv");
            rows.add(parse(text));
        }
        return rows;
    }

    private static Row parse(String text) {
        for (String line : text.split("\n")) {
            if (line.startsWith("csv,")) {
                String[] f = line.split(",");
                return new Row(Integer.parseInt(f[1]), Integer.parseInt(f[2]), f[3], d(f[4]), d(f[5]), d(f[6]),
                        d(f[7]), d(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10].trim()));
            }
        }
        throw new IllegalStateException("no csv line in:\n" + text);
    }

    private static double d(String s) {
        return Double.parseDouble(s);
    }

    /** The run whose median init time is the median of the runs. */
    private static Row median(List<Row> runs) {
        List<Row> sorted = new ArrayList<>(runs);
        sorted.sort((a, b) -> Double.compare(a.median(), b.median()));
        return sorted.get(sorted.size() / 2);
    }

    /** A line chart of exchange time (median rank) against {@code x}, one line per strategy, the time on a log scale. */
    static LineChart chart(List<Row> rows, List<String> exchanges, String xLabel, String title,
                           java.util.function.Predicate<Row> keep, java.util.function.ToIntFunction<Row> x) {
        LineChart chart = new LineChart(title, xLabel, "exchange, median rank (ms)").logY();
        for (String exchange : exchanges) {
            TreeMap<Integer, Double> points = new TreeMap<>();
            for (Row r : rows) {
                if (keep.test(r) && r.exchange().equals(exchange)) {
                    points.put(x.applyAsInt(r), r.exchangeMedian());
                }
            }
            if (!points.isEmpty()) {
                chart.series(exchange, points.keySet().stream().mapToDouble(Integer::doubleValue).toArray(),
                        points.values().stream().mapToDouble(Double::doubleValue).toArray());
            }
        }
        return chart;
    }
}
