package dev.mpj.samples.bench;

import dev.mpj.runtime.MpjRuntime;
import dev.mpj.runtime.bootstrap.ExchangeFormula;
import dev.mpj.runtime.init.InitReport;
import dev.mpj.samples.JobExit;
import dev.mpj.samples.Lines;
import mpi.MPI;

import java.util.Arrays;
import java.util.Locale;

/**
 * Startup benchmark, in the style of OSU's {@code osu_init}: every rank times {@code MPI.Init} from the entry of
 * {@code main}, rank 0 gathers the figures with point-to-point messages and prints
 * <pre>
 *   nprocs: 16, min: X ms, max: Y ms, avg: Z ms
 *   nodes: 4, exchange: roots
 *   phases (median over ranks, ms): pmi … exchange … connections …
 *   work overlapping the pending fence (median over ranks, ms): …
 *   process CPU at the end of MPI.Init, JVM start included (median over ranks, ms): cpu … initcpu … maincpu …
 *   exchange PMI operations of the job: puts=4 gets=12 (formula N puts, N(N−1) gets: puts=4 gets=12)
 *   pmi get median 31.0 us (over 36 gets, min 12.0 us, max 95.0 us)
 *   pmi get median by order in the rank (us): 1: 80.0, 2: 40.0, …
 * </pre>
 * The get median is taken over every PMI get of the job, timed in the client from request to reply; the last line
 * takes it over the ranks' first gets, their second gets and so on, which tells the cold gets from the others.
 * The process CPU (every thread's run time, {@link ProcessCpu}) is read when {@code MPI.Init} returns, JVM start
 * included ({@code cpu}), and at the entry of {@code main}, so {@code initcpu} is {@code MPI.Init}'s own, JIT and
 * collector threads included; {@code maincpu} is the CPU of the thread that called {@code MPI.Init} alone, the
 * work on its critical path that other threads do not take over; a busy machine blurs these less than the wall
 * clock.
 * Options: {@code --exchange simple|shm|roots|ring|auto} (sets {@code mpj.addressExchange} before init),
 * {@code --irregular} (forces the card-length agreement), {@code --csv} (adds one machine-readable line starting
 * with {@code csv,}).
 */
public final class InitBench {
    /** The phases reported, in order; a phase that did not run counts as 0. */
    static final String[] PHASES = {"pmi", "nodemap", "listen", "card", "engine", "segment", "preload",
            "cardlength", "exchange", "fence", "connections"};
    private static final int TOTAL = 0;
    private static final int FIRST_PHASE = 1;
    private static final int PUTS = FIRST_PHASE + PHASES.length;
    private static final int GETS = PUTS + 1;
    private static final int AGREEMENT_PUTS = GETS + 1;
    private static final int AGREEMENT_GETS = AGREEMENT_PUTS + 1;
    /** The local work done while the exchange's fence was pending (InitReport#overlapNanos). */
    private static final int OVERLAP = AGREEMENT_GETS + 1;
    private static final int ALLGATHERS = OVERLAP + 1;
    private static final int TIMED_GETS = ALLGATHERS + 1;
    /** The process's CPU time when MPI.Init returned, JVM start included (-1 where /proc has no figure). */
    private static final int CPU = TIMED_GETS + 1;
    /** The process's CPU time from the entry of main until MPI.Init returned: MPI.Init's, every thread's. */
    private static final int INIT_CPU = CPU + 1;
    /** The CPU time of the thread that called MPI.Init, from the entry of main until MPI.Init returned. */
    private static final int MAIN_CPU = INIT_CPU + 1;
    private static final int FIELDS = MAIN_CPU + 1;
    private static final int TAG = 7;

    private InitBench() {
    }

    public static void main(String[] args) {
        double cpuAtStart = ProcessCpu.millis(); // before the clock starts: its own cost is not MPI.Init's
        double threadCpuAtStart = ProcessCpu.threadMillis();
        long start = System.nanoTime();
        boolean csv = false;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> help = true;
                case "--exchange" -> {
                    if (i + 1 == args.length) {
                        throw new IllegalArgumentException("--exchange needs simple, shm, roots, ring or auto");
                    }
                    System.setProperty("mpj.addressExchange", args[++i]);
                }
                case "--irregular" -> System.setProperty("mpj.irregularCards", "true");
                case "--csv" -> csv = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (--exchange simple|shm|roots|ring|auto, --irregular, --csv)");
            }
        }
        MPI.Init(args);
        if (help) {
            JobExit.usage("usage: initbench [--exchange simple|shm|roots|ring|auto] [--irregular] [--csv]");
        }
        double initMs = (System.nanoTime() - start) / 1e6;
        double threadCpuMs = ProcessCpu.threadMillis();
        double cpuMs = ProcessCpu.millis();
        InitReport report = MpjRuntime.current().initReport();
        double[] mine = new double[FIELDS];
        mine[TOTAL] = initMs;
        for (int p = 0; p < PHASES.length; p++) {
            mine[FIRST_PHASE + p] = report.get(PHASES[p]).millis();
        }
        mine[PUTS] = report.get("exchange").puts();
        mine[GETS] = report.get("exchange").gets();
        mine[AGREEMENT_PUTS] = report.get("cardlength").puts();
        mine[AGREEMENT_GETS] = report.get("cardlength").gets();
        mine[OVERLAP] = report.overlapNanos() / 1e6;
        mine[ALLGATHERS] = report.get("exchange").allgathers() + report.get("fence").allgathers();
        long[] getNanos = MpjRuntime.current().pmi().counters().getNanos();
        mine[TIMED_GETS] = getNanos.length;
        mine[CPU] = cpuMs;
        mine[INIT_CPU] = cpuMs - cpuAtStart;
        mine[MAIN_CPU] = threadCpuMs < 0 || threadCpuAtStart < 0 ? -1 : threadCpuMs - threadCpuAtStart;

        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        if (rank != 0) {
            MPI.COMM_WORLD.Send(mine, 0, FIELDS, MPI.DOUBLE, 0, TAG);
            MPI.COMM_WORLD.Send(getNanos, 0, getNanos.length, MPI.LONG, 0, TAG);
        } else {
            double[][] all = new double[size][];
            long[][] gets = new long[size][];
            all[0] = mine;
            gets[0] = getNanos;
            for (int r = 1; r < size; r++) {
                all[r] = new double[FIELDS];
                MPI.COMM_WORLD.Recv(all[r], 0, FIELDS, MPI.DOUBLE, r, TAG);
                gets[r] = new long[(int) all[r][TIMED_GETS]];
                MPI.COMM_WORLD.Recv(gets[r], 0, gets[r].length, MPI.LONG, r, TAG);
            }
            print(all, report, csv);
            printGetMedian(gets);
        }
        MPI.Finalize();
    }

    private static void print(double[][] all, InitReport report, boolean csv) {
        int np = all.length;
        int nodes = report.nodeCount();
        double[] total = column(all, TOTAL);
        double min = Arrays.stream(total).min().orElse(0);
        double max = Arrays.stream(total).max().orElse(0);
        double avg = Arrays.stream(total).average().orElse(0);
        long puts = (long) Arrays.stream(column(all, PUTS)).sum();
        long gets = (long) Arrays.stream(column(all, GETS)).sum();
        String exchange = report.exchange();
        Lines.printf("nprocs: %d, min: %.2f ms, max: %.2f ms, avg: %.2f ms%n", np, min, max, avg);
        Lines.printf("nodes: %d, exchange: %s%n", nodes, exchange);
        StringBuilder phases = new StringBuilder("phases (median over ranks, ms):");
        for (int p = 0; p < PHASES.length; p++) {
            phases.append(String.format(Locale.ROOT, " %s %.2f", PHASES[p], median(column(all, FIRST_PHASE + p))));
        }
        System.out.println(phases);
        Lines.printf("work overlapping the pending fence (median over ranks, ms): %.2f%n", median(column(all, OVERLAP)));
        double cpu = median(column(all, CPU));
        if (cpu >= 0) {
            Lines.printf("process CPU at the end of MPI.Init, JVM start included (median over ranks, ms): cpu %.1f"
                    + " initcpu %.1f maincpu %.1f%n", cpu, median(column(all, INIT_CPU)),
                    median(column(all, MAIN_CPU)));
        }
        long allgathers = (long) Arrays.stream(column(all, ALLGATHERS)).sum();
        Lines.printf("exchange PMI operations of the job: puts=%d gets=%d%s (formula %s)%n", puts, gets,
                allgathers > 0 ? " allgathers=" + allgathers : "",
                ExchangeFormula.of(exchange, np, nodes, allgathers > 0).text());
        long agreementPuts = (long) Arrays.stream(column(all, AGREEMENT_PUTS)).sum();
        long agreementGets = (long) Arrays.stream(column(all, AGREEMENT_GETS)).sum();
        if (agreementPuts + agreementGets > 0) {
            Lines.printf("card-length agreement, PMI operations of the job: puts=%d gets=%d"
                    + " (formula N puts, N·P gets: puts=%d gets=%d)%n", agreementPuts, agreementGets, nodes,
                    (long) nodes * np);
        }
        if (csv) {
            Lines.printf("csv,%d,%d,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d%n", np, nodes, exchange, min,
                    max, avg, median(total), median(column(all, FIRST_PHASE + indexOf("exchange"))), puts, gets);
        }
    }

    /** The median time of a PMI get, request to reply, over every get of the job (its start included). */
    private static void printGetMedian(long[][] gets) {
        double[] all = Arrays.stream(gets).flatMapToLong(Arrays::stream).sorted().asDoubleStream().toArray();
        if (all.length == 0) {
            System.out.println("pmi get median: no gets");
            return;
        }
        Lines.printf("pmi get median %.1f us (over %d gets, min %.1f us, max %.1f us)%n", median(all) / 1e3,
                all.length, all[0] / 1e3, all[all.length - 1] / 1e3);
        StringBuilder byOrder = new StringBuilder("pmi get median by order in the rank (us):");
        for (int i = 0; ; i++) {
            int at = i;
            double[] ith = Arrays.stream(gets).filter(g -> g.length > at).mapToDouble(g -> g[at]).toArray();
            if (ith.length == 0) {
                break;
            }
            byOrder.append(String.format(Locale.ROOT, "%s %d: %.1f", i == 0 ? "" : ",", i + 1, median(ith) / 1e3));
        }
        System.out.println(byOrder);
    }

    private static int indexOf(String phase) {
        return Arrays.asList(PHASES).indexOf(phase);
    }

    private static double[] column(double[][] all, int field) {
        double[] c = new double[all.length];
        for (int r = 0; r < all.length; r++) {
            c[r] = all[r][field];
        }
        return c;
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
