package dev.mpj.samples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs {@link ConnBench} under {@code mpjrun} for every connection mode over a grid of process counts and ranks per
 * fake node, and writes {@code conn-sweep.csv} (medians of the repetitions) and one chart per pattern and layout,
 * {@code conn-sweep-PATTERN-ppnK.png}: {@code MPI.Init}, the first call and the average of the next ones against the
 * process count, per mode (the shape of Figures 10-13 of Xu et al.).
 * <pre>
 *   java -cp … dev.mpj.samples.bench.ConnSweep [--np 4,8,16] [--ppn 1,4] [--modes eager,ondemand]
 *        [--ops alltoall,allreduce,bcast,stencil] [--repeat 3] [-i 100] [--bytes 64] [--out DIR] [--from CSV]
 * </pre>
 * Each pattern runs in a job of its own, so that under {@code ondemand} its first call pays for every connection
 * it uses. Layouts with a single node are left out (no TCP). Each row also gives the kernel's SYN retransmissions
 * and listen-queue drops during the job (largest over the repetitions, read from {@code /proc/net/netstat}, so any
 * other TCP traffic of the machine counts too): a dropped SYN is retried after 1 s, then 3 s, the storm eager setup
 * must not cause. A job that fails is reported and left out of the medians ({@code runs} counts the others).
 * {@code --from} only draws the charts of an earlier sweep's CSV. Rank JVMs get
 * {@code -Xmx64m -XX:TieredStopAtLevel=1} unless {@code MPJ_JVM_OPTS} says otherwise, and
 * {@code MPJ_INIT_TIMEOUT=300} unless set.
 */
public final class ConnSweep {
    /** Columns of the sweep's CSV after connbench's: the layout, the repetitions, the kernel counters. */
    private static final List<String> EXTRA = List.of("ppn", "runs", "syn_retrans", "listen_drops");
    /** ConnBench columns whose median is taken over the repetitions. */
    private static final List<String> MEASURED = List.of("init_ms", "first_ms", "next_avg_ms", "loop_avg_ms",
            "first_over_next", "connections", "peers_per_rank", "eager_ms", "ready_wait_ms", "slowest_connect_ms");

    private ConnSweep() {
    }

    public static void main(String[] args) throws Exception {
        List<Integer> nps = List.of(4, 8, 16);
        List<Integer> ppns = List.of(1, 4);
        List<String> modes = List.of("eager", "ondemand");
        List<String> ops = List.of("alltoall", "allreduce", "bcast", "stencil");
        int repeat = 3;
        String iterations = "100";
        String bytes = "64";
        Path out = Path.of(".");
        Path from = null;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String v = args[i + 1];
            switch (args[i]) {
                case "--np" -> nps = ints(v);
                case "--ppn" -> ppns = ints(v);
                case "--modes" -> modes = List.of(v.split(","));
                case "--ops" -> ops = List.of(v.split(","));
                case "--repeat" -> repeat = Integer.parseInt(v);
                case "-i" -> iterations = v;
                case "--bytes" -> bytes = v;
                case "--out" -> out = Path.of(v);
                case "--from" -> from = Path.of(v);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (--np, --ppn, --modes,"
                        + " --ops, --repeat, -i, --bytes, --out, --from)");
            }
        }
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be >= 1");
        }
        Files.createDirectories(out);
        List<Map<String, String>> rows = new ArrayList<>();
        if (from != null) {
            rows.addAll(readCsv(Files.readString(from)));
        } else {
            List<String> header = new ArrayList<>(List.of(ConnBench.COLUMNS));
            header.addAll(EXTRA);
            for (int np : nps) {
                for (int ppn : ppns) {
                    if (ppn >= np) {
                        continue;
                    }
                    for (String op : ops) {
                        for (String mode : modes) {
                            List<Map<String, String>> runs = new ArrayList<>();
                            long[] kernel = new long[2];
                            for (int k = 0; k < repeat; k++) {
                                long[] before = kernelCounters();
                                try {
                                    runs.add(run(np, ppn, mode, op, iterations, bytes));
                                } catch (IllegalStateException e) { // one failed job must not lose the sweep
                                    System.err.println(e.getMessage());
                                }
                                long[] after = kernelCounters();
                                for (int c = 0; c < 2; c++) {
                                    kernel[c] = Math.max(kernel[c], after[c] - before[c]);
                                }
                            }
                            if (runs.isEmpty()) {
                                continue;
                            }
                            Map<String, String> row = median(runs);
                            row.put("ppn", Integer.toString(ppn));
                            row.put("runs", Integer.toString(runs.size()));
                            row.put("syn_retrans", Long.toString(kernel[0]));
                            row.put("listen_drops", Long.toString(kernel[1]));
                            rows.add(row);
                            System.out.println(line(header, row));
                            Files.writeString(out.resolve("conn-sweep.csv"), csv(header, rows));
                        }
                    }
                }
            }
        }
        draw(rows, out);
    }

    /** One job of connbench; its CSV row. */
    private static Map<String, String> run(int np, int ppn, String mode, String op, String iterations, String bytes)
            throws IOException, InterruptedException {
        String text = SweepJob.run("np " + np + " ppn " + ppn + " " + mode + " " + op, np, (np + ppn - 1) / ppn,
                ConnBench.class, "--mode", mode, "--ops", op, "-i", iterations, "--bytes", bytes, "--csv", "-");
        List<Map<String, String>> rows = readCsv(text);
        if (rows.size() != 1) {
            throw new IllegalStateException("expected one CSV row from connbench, got " + rows.size() + ":\n" + text);
        }
        return rows.get(0);
    }

    /** The rows of the CSV in {@code text}: the header is the first line starting with "mode,np,". */
    static List<Map<String, String>> readCsv(String text) {
        List<Map<String, String>> rows = new ArrayList<>();
        String[] header = null;
        for (String line : text.split("\n")) {
            line = line.trim();
            if (line.startsWith("mode,np,")) {
                header = line.split(",");
            } else if (header != null && !line.isEmpty() && !line.startsWith("#")
                    && line.split(",").length == header.length) {
                String[] f = line.split(",");
                Map<String, String> row = new LinkedHashMap<>();
                for (int c = 0; c < header.length; c++) {
                    row.put(header[c], f[c]);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The first run's labels with the median of each measured column over the runs. */
    static Map<String, String> median(List<Map<String, String>> runs) {
        Map<String, String> row = new LinkedHashMap<>(runs.get(0));
        for (String column : MEASURED) {
            double[] v = runs.stream().mapToDouble(r -> Double.parseDouble(r.get(column))).sorted().toArray();
            int n = v.length;
            double m = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
            row.put(column, String.format(Locale.ROOT, "%.6g", m));
        }
        return row;
    }

    /** TCPSynRetrans and ListenDrops of the network namespace so far; zeros where the kernel does not tell. */
    private static long[] kernelCounters() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/net/netstat"));
            for (int i = 0; i + 1 < lines.size(); i++) {
                if (lines.get(i).startsWith("TcpExt:") && lines.get(i + 1).startsWith("TcpExt:")) {
                    List<String> names = Arrays.asList(lines.get(i).split("\\s+"));
                    String[] values = lines.get(i + 1).split("\\s+");
                    return new long[]{value(names, values, "TCPSynRetrans"), value(names, values, "ListenDrops")};
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: no counters
        }
        return new long[2];
    }

    private static long value(List<String> names, String[] values, String name) {
        int i = names.indexOf(name);
        return i < 0 ? 0 : Long.parseLong(values[i]);
    }

    /** One chart per pattern and layout: init, first call and next average against np, a line per mode. */
    private static void draw(List<Map<String, String>> rows, Path out) {
        Map<String, List<Map<String, String>>> byFigure = new TreeMap<>();
        for (Map<String, String> r : rows) {
            byFigure.computeIfAbsent(r.get("pattern") + "-ppn" + r.get("ppn"), k -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<String, List<Map<String, String>>> figure : byFigure.entrySet()) {
            Map<String, String> first = figure.getValue().get(0);
            LineChart chart = new LineChart(first.get("pattern") + " (" + first.get("bytes") + " B), " + first.get("ppn")
                    + " rank(s) per node: MPI.Init, first call, next average", "processes", "ms (largest over ranks)")
                    .logY();
            Map<String, List<Map<String, String>>> byMode = new TreeMap<>();
            for (Map<String, String> r : figure.getValue()) {
                byMode.computeIfAbsent(r.get("mode"), k -> new ArrayList<>()).add(r);
            }
            for (String column : List.of("init_ms", "first_ms", "next_avg_ms")) {
                for (Map.Entry<String, List<Map<String, String>>> mode : byMode.entrySet()) {
                    List<Map<String, String>> points = mode.getValue();
                    points.sort((a, b) -> Integer.compare(Integer.parseInt(a.get("np")), Integer.parseInt(b.get("np"))));
                    chart.series(mode.getKey() + " " + column.replace("_ms", "").replace('_', ' '),
                            points.stream().mapToDouble(r -> Double.parseDouble(r.get("np"))).toArray(),
                            points.stream().mapToDouble(r -> Double.parseDouble(r.get(column))).toArray());
                }
            }
            chart.write(out.resolve("conn-sweep-" + figure.getKey() + ".png"));
        }
    }

    private static String csv(List<String> header, List<Map<String, String>> rows) {
        StringBuilder sb = new StringBuilder(String.join(",", header)).append('\n');
        for (Map<String, String> r : rows) {
            sb.append(line(header, r)).append('\n');
        }
        return sb.toString();
    }

    private static String line(List<String> header, Map<String, String> row) {
        return String.join(",", header.stream().map(h -> row.getOrDefault(h, "")).toList());
    }

    private static List<Integer> ints(String list) {
        List<Integer> values = new ArrayList<>();
        for (String s : list.split(",")) {
            values.add(Integer.parseInt(s.trim()));
        }
        return values;
    }
}
