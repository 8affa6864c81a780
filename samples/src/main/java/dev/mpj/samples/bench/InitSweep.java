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
 * largest process count ({@code init-sweep-nodes.svg}), and by processes per node at the largest node count
 * ({@code init-sweep-ppn.svg}) — the shape of figures 5 and 6 of the locality-aware PMI paper.
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
        Files.writeString(out.resolve("init-sweep-nodes.svg"), chart(rows, exchanges, "nodes",
                "Exchange time by node count, np = " + maxNp, r -> r.np() == maxNp, r -> r.nodes()));
        Files.writeString(out.resolve("init-sweep-ppn.svg"), chart(rows, exchanges, "processes per node",
                "Exchange time by processes per node, " + maxNodes + " nodes", r -> r.nodes() == maxNodes,
                r -> (r.np() + r.nodes() - 1) / r.nodes()));
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

    // ------------------------------------------------------------------ SVG

    private static final int W = 640;
    private static final int H = 400;
    private static final int LEFT = 70;
    private static final int RIGHT = 150;
    private static final int TOP = 40;
    private static final int BOTTOM = 50;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};

    /** A line chart of exchange time (median rank) against {@code x}, one line per strategy. */
    static String chart(List<Row> rows, List<String> exchanges, String xLabel, String title,
                        java.util.function.Predicate<Row> keep, java.util.function.ToIntFunction<Row> x) {
        Map<String, TreeMap<Integer, Double>> series = new TreeMap<>();
        double yMax = 0;
        int xMax = 1;
        for (Row r : rows) {
            if (keep.test(r)) {
                series.computeIfAbsent(r.exchange(), k -> new TreeMap<>()).put(x.applyAsInt(r), r.exchangeMedian());
                yMax = Math.max(yMax, r.exchangeMedian());
                xMax = Math.max(xMax, x.applyAsInt(r));
            }
        }
        yMax = yMax <= 0 ? 1 : niceCeiling(yMax);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"12\">%n", W, H));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, H));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"14\">%s</text>%n", LEFT, title));
        int plotW = W - LEFT - RIGHT;
        int plotH = H - TOP - BOTTOM;
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                LEFT, TOP + plotH, LEFT + plotW, TOP + plotH));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                LEFT, TOP, LEFT, TOP + plotH));
        for (int i = 0; i <= 4; i++) {
            double v = yMax * i / 4;
            double y = TOP + plotH - plotH * (v / yMax);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>%n", LEFT, y, LEFT + plotW, y,
                    LEFT - 6, y + 4, v));
        }
        java.util.TreeSet<Integer> xs = new java.util.TreeSet<>();
        series.values().forEach(s -> xs.addAll(s.keySet()));
        for (int xv : xs) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n",
                    xPos(xv, xMax, plotW), TOP + plotH + 18, xv));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                LEFT + plotW / 2, H - 10, xLabel));
        svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\""
                + " text-anchor=\"middle\">exchange, median rank (ms)</text>%n", TOP + plotH / 2, TOP + plotH / 2));
        int legend = 0;
        for (String exchange : exchanges) {
            TreeMap<Integer, Double> s = series.get(exchange);
            if (s == null) {
                continue;
            }
            String colour = COLOURS[legend % COLOURS.length];
            StringBuilder points = new StringBuilder();
            for (Map.Entry<Integer, Double> e : s.entrySet()) {
                double px = xPos(e.getKey(), xMax, plotW);
                double py = TOP + plotH - plotH * (e.getValue() / yMax);
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", px,
                        py, colour));
            }
            svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\""
                    + " stroke-width=\"2\"/>%n", points.toString().trim(), colour));
            int ly = TOP + 10 + legend * 20;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\""
                    + " stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">%s</text>%n", W - RIGHT + 20, ly,
                    W - RIGHT + 45, ly, colour, W - RIGHT + 50, ly + 4, exchange));
            legend++;
        }
        return svg.append("</svg>\n").toString();
    }

    /** x on a log₂ scale, so 1, 2, 4, 8 are evenly spaced. */
    private static double xPos(int x, int xMax, int plotW) {
        double span = Math.max(1, Math.log(xMax) / Math.log(2));
        return LEFT + 20 + (plotW - 40) * (Math.log(Math.max(1, x)) / Math.log(2)) / span;
    }

    private static double niceCeiling(double v) {
        double step = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * step >= v) {
                return m * step;
            }
        }
        return 10 * step;
    }
}
