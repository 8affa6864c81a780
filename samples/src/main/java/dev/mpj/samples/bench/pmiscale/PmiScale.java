package dev.mpj.samples.bench.pmiscale;

import dev.mpj.runtime.bootstrap.ExchangeFormula;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.pmi.wire.PmiSecret;
import dev.mpj.runtime.pmi.wire.PmiVariables;
import dev.mpj.samples.bench.LineChart;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The PMI scale simulator ({@code bench/pmi-scale}): runs the address exchanges' PMI traffic against mpjrun's
 * real PMI server with simulated ranks, lightweight clients that speak the real wire protocol over loopback
 * sockets, many per thread, no JVM per rank. It sweeps the node count by doubling up to {@code --nodes}, with
 * {@code --ranks / --nodes} ranks per node, as paper [1]'s Figures 5–6, and prints
 * {@code exchange,ranks,nodes,puts,gets,fences,seconds} per job, where seconds is the exchange's wall time (from
 * every rank started to the last one done) and the counts are the job's, checked against {@link ExchangeFormula}.
 * Jobs whose formula has more than {@code --max-gets} gets, or allgathers that would deliver more than
 * {@code --max-values} values, are not run; their time is estimated from the largest run of the same exchange,
 * per get or per value delivered. Then the medians, each exchange's growth (the slope of log time against log ranks)
 * and, with {@code --chart}, a log-log chart of time against ranks.
 *
 * <p>Options: {@code --ranks R --nodes N [--min-nodes n] [--exchanges simple,allgather,shm,roots,ring]
 * [--max-gets G] [--max-values V] [--rounds k] [--threads t] [--limit seconds] [--csv FILE] [--chart FILE.svg|png]
 * [--in-process] [--agents] [--no-shared-table]}. The server runs in a child JVM unless {@code --in-process}. With
 * {@code --agents} every job also runs through one real node agent per simulated node, linked along mpjrun's tree
 * over loopback (decision 0036), its rows labelled {@code exchange+agents}: the simulated ranks are the same, so the
 * flat and the tree servers are compared on equal terms. As the real clients, the simulated ranks map the shared KVS
 * table their server or agent announces and answer a get from it when it holds the key (a get all the same);
 * {@code --no-shared-table} makes them ask for every get, as under a manager without the table. With
 * {@code --in-process}, each job is followed by the CPU time the process (server,
 * agents and simulated ranks) spent in its exchange, the measure that a loaded machine disturbs least.
 */
public final class PmiScale {
    /** One job: the PMI operations it made (summed over ranks) and its exchange time. */
    record Row(String exchange, int ranks, int nodes, long puts, long gets, long fences, long other, double seconds,
               double cpuSeconds, long tableGets) {
        String csv() {
            return String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%.3f", exchange, ranks, nodes, puts, gets, fences,
                    seconds);
        }
    }

    static final String CSV_HEADER = "exchange,ranks,nodes,puts,gets,fences,seconds";

    private PmiScale() {
    }

    /** How a run through node agents is labelled: {@code roots+agents}. */
    static final String AGENTS = "+agents";

    /**
     * The formula of a simulated exchange ({@code allgather} is {@code simple} over the allgather; agents do not
     * change it).
     */
    static ExchangeFormula formula(String label, long ranks, long nodes) {
        String exchange = label.endsWith(AGENTS) ? label.substring(0, label.length() - AGENTS.length()) : label;
        boolean allgather = exchange.equals("allgather");
        return ExchangeFormula.of(allgather ? "simple" : exchange, ranks, nodes, allgather);
    }

    /**
     * Runs one simulated job of {@code exchange}.
     *
     * @param ownProcess whether the server runs in a child JVM (else in this one)
     * @param agents     whether one node agent per node serves the ranks (decision 0036), else one flat server
     * @param sharedTable whether the ranks answer gets from the node's shared KVS table, as the real clients do,
     *                    else ask the server for every get, as under a manager without the table
     */
    static Row runJob(String exchange, int ranks, int nodes, boolean ownProcess, boolean agents, int threads,
                      Duration limit, boolean sharedTable) throws IOException {
        String kvs = "pmiscale_" + ranks + "_" + nodes;
        String secret = PmiSecret.newSecret();
        RankScript.Job job = RankScript.Job.of(NodeMap.blocks(ranks, nodes), kvs, secret);
        Simulation.Result result;
        if (ownProcess) {
            Process server = startServer(ranks, nodes, kvs, secret, limit, agents);
            try {
                result = Simulation.run(exchange, job, serverAddresses(server, nodes), threads, limit, sharedTable);
                if (!server.waitFor(limit.toSeconds(), TimeUnit.SECONDS) || server.exitValue() != 0) {
                    throw new IOException("the PMI server of the simulated " + exchange + " job did not end well");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            } finally {
                server.destroyForcibly();
            }
        } else {
            try (ServerRun server = new ServerRun(ranks, nodes, kvs, secret, agents)) {
                result = Simulation.run(exchange, job, server.addressOfNode(), threads, limit, sharedTable);
                server.awaitFinalized(limit);
            }
        }
        return new Row(agents ? exchange + AGENTS : exchange, ranks, nodes, result.count(Step.Op.PUT), result.count(Step.Op.GET),
                result.count(Step.Op.FENCE), result.count(Step.Op.RING) + result.count(Step.Op.ALLGATHER),
                result.seconds(), result.cpuSeconds(), result.tableGets());
    }

    private static Process startServer(int ranks, int nodes, String kvs, String secret, Duration limit,
                                       boolean agents) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                PmiScaleServer.class.getName(), Integer.toString(ranks), Integer.toString(nodes), kvs,
                Long.toString(limit.toSeconds()), agents ? "agents" : "flat");
        pb.environment().put(PmiVariables.SECRET, secret);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        return pb.start();
    }

    /** The address of each node's server, from the server process's {@code port HOST:PORT …} line. */
    private static InetSocketAddress[] serverAddresses(Process server, int nodes) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        while (line != null && !line.startsWith("port ")) {
            line = out.readLine(); // the JVM's own lines, such as a flight recording's start under JAVA_TOOL_OPTIONS
        }
        String[] ports = line == null ? new String[0] : line.split(" ");
        if (ports.length != nodes + 1 || !ports[0].equals("port")) {
            throw new IOException("the PMI server did not say its ports: " + line);
        }
        InetSocketAddress[] addresses = new InetSocketAddress[nodes];
        for (int n = 0; n < nodes; n++) {
            String hostPort = ports[n + 1];
            int colon = hostPort.lastIndexOf(':');
            addresses[n] = new InetSocketAddress(hostPort.substring(0, colon),
                    Integer.parseInt(hostPort.substring(colon + 1)));
        }
        return addresses;
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> o = options(args);
        int maxRanks = Integer.parseInt(o.getOrDefault("--ranks", "1024"));
        int maxNodes = Integer.parseInt(o.getOrDefault("--nodes", "16"));
        int minNodes = Integer.parseInt(o.getOrDefault("--min-nodes", "1"));
        List<String> exchanges = List.of(o.getOrDefault("--exchanges", String.join(",", RankScript.EXCHANGES))
                .split(","));
        long maxGets = Long.parseLong(o.getOrDefault("--max-gets", Long.toString(1L << 19)));
        long maxValues = Long.parseLong(o.getOrDefault("--max-values", Long.toString(1L << 24)));
        int rounds = Integer.parseInt(o.getOrDefault("--rounds", "1"));
        int threads = Integer.parseInt(o.getOrDefault("--threads", "2"));
        Duration limit = Duration.ofSeconds(Long.parseLong(o.getOrDefault("--limit", "600")));
        boolean ownProcess = !o.containsKey("--in-process");
        boolean sharedTable = !o.containsKey("--no-shared-table");
        List<Boolean> servers = o.containsKey("--agents") ? List.of(false, true) : List.of(false);
        if (maxRanks % maxNodes != 0) {
            throw new IllegalArgumentException("--ranks must be a multiple of --nodes");
        }
        int perNode = maxRanks / maxNodes;
        List<Integer> nodeCounts = new ArrayList<>();
        for (int n = minNodes; n < maxNodes; n *= 2) {
            nodeCounts.add(n);
        }
        nodeCounts.add(maxNodes);

        PrintStream csv = o.containsKey("--csv") ? new PrintStream(Files.newOutputStream(Path.of(o.get("--csv"))),
                true, StandardCharsets.UTF_8) : null;
        System.out.println("# " + perNode + " ranks per node, nodes " + nodeCounts + ", load average "
                + loadAverage());
        System.out.println(CSV_HEADER);
        if (csv != null) {
            csv.println(CSV_HEADER);
        }
        Map<String, List<Row>> runs = new LinkedHashMap<>();
        Map<String, Row> skipped = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            for (int nodes : nodeCounts) {
                int ranks = nodes * perNode;
                for (String exchange : exchanges) {
                    for (boolean agents : servers) {
                        String label = agents ? exchange + AGENTS : exchange;
                        ExchangeFormula f = formula(exchange, ranks, nodes);
                        if (f.gets() > maxGets
                                || exchange.equals("allgather") && (long) ranks * f.other() > maxValues) {
                            skipped.put(label + "," + ranks, new Row(label, ranks, nodes, f.puts(), f.gets(),
                                    f.fences(), f.other(), Double.NaN, Double.NaN, 0));
                            continue;
                        }
                        Row row = runJob(exchange, ranks, nodes, ownProcess, agents, threads, limit, sharedTable);
                        if (row.puts() != f.puts() || row.gets() != f.gets() || row.fences() != f.fences()
                                || row.other() != f.other()) {
                            throw new IllegalStateException("the counts of " + row + " differ from the formula " + f);
                        }
                        System.out.println(row.csv());
                        if (row.gets() > 0) {
                            System.out.printf(Locale.ROOT, "# %s,%d: %d of %d gets from the shared table%n", label,
                                    ranks, row.tableGets(), row.gets());
                        }
                        if (!ownProcess) {
                            System.out.printf(Locale.ROOT, "# %s,%d: %.3f s CPU (server and ranks) in %.3f s%n",
                                    label, ranks, row.cpuSeconds(), row.seconds());
                        }
                        if (csv != null) {
                            csv.println(row.csv());
                        }
                        runs.computeIfAbsent(label + "," + ranks, k -> new ArrayList<>()).add(row);
                    }
                }
            }
        }
        System.out.println("# load average after: " + loadAverage());
        Map<String, TreeMap<Integer, Double>> medians = summarize(runs);
        estimateSkipped(skipped.values(), runs);
        growth(medians, perNode);
        if (o.containsKey("--chart")) {
            chart(medians, perNode).write(Path.of(o.get("--chart")));
        }
        if (csv != null) {
            csv.close();
        }
    }

    /** Median (min–max) per exchange and size; returns the medians by exchange, then ranks. */
    private static Map<String, TreeMap<Integer, Double>> summarize(Map<String, List<Row>> runs) {
        Map<String, TreeMap<Integer, Double>> medians = new LinkedHashMap<>();
        System.out.println("# exchange, ranks, nodes: median seconds (min-max) over the rounds");
        for (List<Row> rows : runs.values()) {
            double[] s = rows.stream().mapToDouble(Row::seconds).sorted().toArray();
            double median = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
            Row first = rows.get(0);
            System.out.printf(Locale.ROOT, "# %s, %d, %d: %.3f (%.3f-%.3f)%n", first.exchange(), first.ranks(),
                    first.nodes(), median, s[0], s[s.length - 1]);
            medians.computeIfAbsent(first.exchange(), k -> new TreeMap<>()).put(first.ranks(), median);
        }
        return medians;
    }

    /**
     * A job not run takes about its work times the seconds per unit of work of the largest run of the same exchange:
     * gets, or for the allgather the values it delivers (P per rank).
     */
    private static void estimateSkipped(Iterable<Row> skipped, Map<String, List<Row>> runs) {
        for (Row s : skipped) {
            Row largest = null;
            for (List<Row> rows : runs.values()) {
                Row r = rows.get(0);
                if (r.exchange().equals(s.exchange()) && (largest == null || r.ranks() > largest.ranks())) {
                    largest = r;
                }
            }
            if (largest == null) {
                System.out.printf(Locale.ROOT, "# %s at %d ranks not run%n", s.exchange(), s.ranks());
                continue;
            }
            boolean values = s.exchange().startsWith("allgather");
            String unit = values ? "value" : "get";
            long work = values ? (long) s.ranks() * s.ranks() : s.gets();
            double perUnit = largest.seconds() / (values ? (double) largest.ranks() * largest.ranks() : largest.gets());
            System.out.printf(Locale.ROOT, "# %s at %d ranks on %d nodes not run: %d %ss; at the %.3f us per %s"
                            + " of its %d-rank run it would take about %.0f s%n", s.exchange(), s.ranks(), s.nodes(),
                    work, unit, perUnit * 1e6, unit, largest.ranks(), perUnit * work);
        }
    }

    /**
     * Each exchange's slope of log time against log ranks, least squares over its sizes on several nodes (on one
     * node {@code roots} and {@code ring} make almost no PMI traffic).
     */
    private static void growth(Map<String, TreeMap<Integer, Double>> medians, int perNode) {
        for (Map.Entry<String, TreeMap<Integer, Double>> e : medians.entrySet()) {
            TreeMap<Integer, Double> points = new TreeMap<>(e.getValue().tailMap(perNode, false));
            if (points.size() < 2) {
                continue;
            }
            double n = points.size();
            double sx = 0;
            double sy = 0;
            double sxx = 0;
            double sxy = 0;
            for (Map.Entry<Integer, Double> p : points.entrySet()) {
                double x = Math.log(p.getKey());
                double y = Math.log(Math.max(p.getValue(), 1e-6));
                sx += x;
                sy += y;
                sxx += x * x;
                sxy += x * y;
            }
            double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
            System.out.printf(Locale.ROOT, "# growth %s: time ~ ranks^%.2f from %d to %d ranks%n", e.getKey(), slope,
                    points.firstKey(), points.lastKey());
        }
    }

    private static LineChart chart(Map<String, TreeMap<Integer, Double>> medians, int perNode) {
        LineChart chart = new LineChart("PMI address exchange against mpjrun's server, simulated ranks ("
                + perNode + " per node)", "ranks", "exchange time (s)").logX().logY();
        for (Map.Entry<String, TreeMap<Integer, Double>> e : medians.entrySet()) {
            chart.series(e.getKey(), e.getValue().keySet().stream().mapToDouble(Integer::doubleValue).toArray(),
                    e.getValue().values().stream().mapToDouble(Double::doubleValue).toArray());
        }
        return chart;
    }

    private static String loadAverage() {
        try {
            return String.join(" ", Arrays.copyOf(Files.readString(Path.of("/proc/loadavg")).split(" "), 3));
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--in-process") || args[i].equals("--agents") || args[i].equals("--no-shared-table")) {
                o.put(args[i], "");
            } else if (args[i].startsWith("--") && i + 1 < args.length) {
                o.put(args[i], args[++i]);
            } else {
                throw new IllegalArgumentException("usage: pmi-scale --ranks R --nodes N [--min-nodes n]"
                        + " [--exchanges simple,allgather,shm,roots,ring] [--max-gets G] [--rounds k] [--threads t]"
                        + " [--limit seconds] [--csv FILE] [--chart FILE.svg|png] [--in-process] [--agents]"
                        + " [--no-shared-table]");
            }
        }
        return o;
    }
}
