package dev.mpj.samples.bench;

import dev.mpj.samples.JobExit;
import dev.mpj.runtime.MpjRuntime;
import dev.mpj.runtime.spi.ConnectionStats;
import dev.mpj.runtime.connect.EagerReport;
import dev.mpj.samples.Lines;
import mpi.Cartcomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.ShiftParms;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * First-iteration benchmark of the connection modes (after Figures 10-13 of Xu et al.): the time of
 * {@code MPI.Init}, of the first call of each pattern and the average of the next ones, for {@code Alltoall},
 * {@code Allreduce}, {@code Bcast} and a 3D-stencil 6-neighbour exchange. The first call and each of the next ones
 * start together on every rank, after a barrier, and are timed alone, as {@code osu_alltoall} times its calls; so
 * first / next compares like with like. Then as many calls run back to back ({@code loop_avg_ms}): there a rank that
 * finishes early starts the next call while the others finish this one, which on a machine whose cores the ranks
 * share makes a call's average shorter than one call's whole critical path. Under {@code ondemand}, a pattern's
 * first call pays for the connections it is the first to use, so run one pattern per job ({@code --ops}) to see
 * each pattern's own first-call cost. A call's time is its slowest rank's, and the next calls' average is the
 * average of those; the other figures are the largest over the ranks. {@code --warmup N} makes N untimed
 * calls before the first timed one; {@code --cpu} also prints where the CPU went in the first call and in the
 * back-to-back ones ({@link ThreadCpu}: the MPI thread, the JIT compilers, the collector, the runtime's threads; the
 * mean over the ranks), which on a machine whose cores the ranks share is what sets the time of a call.
 * <pre>
 *   connbench [--mode eager|ondemand|auto] [--ops alltoall,allreduce,bcast,stencil] [-i 100] [--bytes 64]
 *             [--warmup 0] [--cpu] [--csv FILE|-]
 * </pre>
 * The stencil's grid ({@code Dims_create}, {@code Create_cart}, {@code Shift}) is built before its first timed call;
 * building it is a collective, so it connects a few pairs of its own.
 */
public final class ConnBench {
    private ConnBench() {
    }

    public static void main(String[] args) {
        long start = System.nanoTime();
        List<String> ops = List.of("alltoall", "allreduce", "bcast", "stencil");
        int iterations = 100;
        int bytes = 64;
        int warmup = 0;
        boolean cpu = false;
        String csv = null;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-h", "--help" -> help = true;
                case "--mode" -> System.setProperty("mpj.connections", value(args, ++i, a));
                case "--ops" -> ops = List.of(value(args, ++i, a).toLowerCase(Locale.ROOT).split(","));
                case "-i" -> iterations = Integer.parseInt(value(args, ++i, a));
                case "--bytes" -> bytes = Integer.parseInt(value(args, ++i, a));
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                case "--cpu" -> cpu = true;
                case "--csv" -> csv = value(args, ++i, a);
                default -> throw new IllegalArgumentException("unknown option " + a + " (--mode eager|ondemand|auto,"
                        + " --ops alltoall,allreduce,bcast,stencil, -i N, --bytes B, --warmup N, --cpu, --csv FILE|-)");
            }
        }
        for (String op : ops) {
            if (!List.of("alltoall", "allreduce", "bcast", "stencil").contains(op)) {
                throw new IllegalArgumentException("unknown pattern '" + op + "' (alltoall, allreduce, bcast, stencil)");
            }
        }
        if (iterations < 1 || bytes < 4 || warmup < 0) {
            throw new IllegalArgumentException("-i must be >= 1, --bytes >= 4 and --warmup >= 0");
        }
        MPI.Init(args);
        if (help) {
            JobExit.usage("usage: connbench [--mode eager|ondemand|auto] [--ops alltoall,allreduce,bcast,stencil]"
                    + " [-i N] [--bytes B] [--warmup N] [--cpu] [--csv FILE|-]");
        }
        double initMs = ms(System.nanoTime() - start);
        Intracomm world = MPI.COMM_WORLD;
        int size = world.Size();
        MpjRuntime runtime = MpjRuntime.current();

        // times[2k] = first call of pattern k, times[2k+1] = average of as many back-to-back calls; nextCalls[k *
        // iterations + i] = this rank's i-th next call of pattern k, each timed alone after a barrier; all in ms
        double[] times = new double[2 * ops.size() + 1];
        double[] nextCalls = new double[ops.size() * iterations];
        ThreadCpu threads = cpu ? new ThreadCpu() : null;
        // cpuMs[k] = the first call's CPU per thread kind, then the back-to-back calls' per call, in ms
        double[][] cpuMs = new double[ops.size()][];
        for (int k = 0; k < ops.size(); k++) {
            Pattern p = pattern(ops.get(k), world, size, bytes);
            for (int w = 0; w < warmup; w++) {
                p.run();
            }
            // before the barrier: a snapshot reads a file per thread, some 10 ms of cold code (4 ms the second
            // time), and taken after it would hold up the peers this rank's first call serves (np 2, warm: the
            // first call 24 ms instead of 0.9). So the other threads' first-call CPU includes the barrier's wait;
            // the MPI thread's does not, being read from its clock as the snapshot ends.
            ThreadCpu.Sample before = threads == null ? null : threads.snapshot();
            times[2 * k] = ms(alignedCall(runtime, p));
            ThreadCpu.Sample afterFirst = threads == null ? null : threads.snapshot();
            for (int i = 0; i < iterations; i++) {
                nextCalls[k * iterations + i] = ms(alignedCall(runtime, p));
            }
            ThreadCpu.Sample beforeLoop = threads == null ? null : threads.snapshot();
            runtime.pmi().barrier();
            long t0 = System.nanoTime();
            for (int i = 0; i < iterations; i++) {
                p.run();
            }
            times[2 * k + 1] = ms(System.nanoTime() - t0) / iterations;
            if (threads != null) {
                double[] first = ThreadCpu.millisPerCall(before, afterFirst, 1);
                double[] next = ThreadCpu.millisPerCall(beforeLoop, threads.snapshot(), iterations);
                cpuMs[k] = Arrays.copyOf(first, 2 * first.length);
                System.arraycopy(next, 0, cpuMs[k], first.length, next.length);
            }
        }
        times[times.length - 1] = initMs;
        report(world, runtime, ops, times, nextCalls, bytes, iterations, csv);
        if (threads != null) {
            reportCpu(world, ops, cpuMs);
        }
        MPI.Finalize();
    }

    /**
     * One call started together on every rank, as the first call of a pattern is and as {@code osu_alltoall} times
     * each of its calls; its time on this rank in ns. The barrier is PMI's, because an MPI one would open on-demand
     * connections of its own.
     */
    private static long alignedCall(MpjRuntime runtime, Pattern p) {
        runtime.pmi().barrier();
        long t0 = System.nanoTime();
        p.run();
        return System.nanoTime() - t0;
    }

    /** CSV columns, one row per pattern: the driver ({@link ConnSweep}) reads them by name. */
    static final String[] COLUMNS = {"mode", "np", "nodes", "pattern", "bytes", "init_ms", "first_ms", "next_avg_ms",
        "loop_avg_ms", "first_over_next", "connections", "peers_per_rank", "eager_ms", "ready_wait_ms",
        "slowest_connect_ms"};

    /**
     * Rank 0 prints the table (each time the largest over ranks), the job's TCP connections, the peers a rank
     * talked to on average and, after an eager phase, the slowest connect of each round over all ranks. A next
     * call's time is, as the first call's, its slowest rank's: the average of the next calls is over those, not
     * the slowest rank's average. Which rank is slowest changes from call to call (one rank is held up by the
     * barrier's release, another loses its core), so the slowest average would be shorter than a typical call's
     * slowest rank, and first / next would be high even fully warm (2.0 at np 16 on 2 cores with 100 warm-up
     * calls, against 1.0 taken like with like).
     */
    private static void report(Intracomm world, MpjRuntime runtime, List<String> ops, double[] times,
                               double[] nextCalls, int bytes, int iterations, String csv) {
        int size = world.Size();
        double[] slowestCalls = new double[nextCalls.length];
        world.Reduce(nextCalls, 0, slowestCalls, 0, nextCalls.length, MPI.DOUBLE, MPI.MAX, 0);
        EagerReport eager = runtime.eagerReport();
        long[] perRound = eager == null ? new long[0] : eager.slowestPerRoundNanos();
        // mine = times, then eager phase, wait for every transport, then the slowest connect of each round
        double[] mine = Arrays.copyOf(times, times.length + 2 + perRound.length);
        if (eager != null) {
            mine[times.length] = ms(eager.elapsedNanos());
            mine[times.length + 1] = ms(eager.startWaitNanos());
            for (int k = 0; k < perRound.length; k++) {
                mine[times.length + 2 + k] = ms(perRound[k]);
            }
        }
        double[] worst = new double[mine.length];
        world.Reduce(mine, 0, worst, 0, mine.length, MPI.DOUBLE, MPI.MAX, 0);
        ConnectionStats stats = runtime.connectionStats();
        int[] counts = {stats.initiated(), stats.peersTalkedTo()};
        int[] sums = new int[2];
        world.Reduce(counts, 0, sums, 0, 2, MPI.INT, MPI.SUM, 0);
        if (world.Rank() != 0) {
            return;
        }
        String mode = runtime.connectionMode().settingValue();
        int nodes = runtime.nodeMap().nodeCount();
        double[] rounds = Arrays.copyOfRange(worst, times.length + 2, worst.length);
        double slowest = Arrays.stream(rounds).max().orElse(0);
        double init = worst[times.length - 1];
        double peers = sums[1] / (double) size;
        BenchTable table = new BenchTable(COLUMNS);
        for (int k = 0; k < ops.size(); k++) {
            double next = Arrays.stream(slowestCalls, k * iterations, (k + 1) * iterations).average().orElse(0);
            table.row(mode, size, nodes, ops.get(k), bytes, init, worst[2 * k], next, worst[2 * k + 1],
                    worst[2 * k] / next, sums[0], peers, worst[times.length], worst[times.length + 1],
                    slowest);
        }
        Lines.printf("# connbench: mode %s, np %d on %d nodes, %d bytes per block, %d calls after the first, each"
                        + " after a barrier, then as many back to back; TCP connections in the job %d, peers talked to"
                        + " per rank %.1f%n", mode, size, nodes, bytes, iterations, sums[0], peers);
        if (eager != null) {
            StringBuilder line = new StringBuilder();
            for (double r : rounds) {
                line.append(String.format(Locale.ROOT, " %.1f", r));
            }
            Lines.printf("# eager phase %.1f ms (every transport ready after %.1f ms), slowest"
                    + " connect %.1f ms, slowest per round (ms):%s%n", worst[times.length], worst[times.length + 1],
                    slowest, line);
        }
        table.print(System.out);
        if ("-".equals(csv)) {
            System.out.print(table.csv());
        } else if (csv != null) {
            table.writeCsv(Path.of(csv));
        }
    }

    /** Rank 0 prints, per pattern, the mean over the ranks of each thread kind's CPU in the first and next calls. */
    private static void reportCpu(Intracomm world, List<String> ops, double[][] cpuMs) {
        int kinds = ThreadCpu.Kind.values().length;
        for (int k = 0; k < ops.size(); k++) {
            double[] sum = new double[2 * kinds];
            world.Reduce(cpuMs[k], 0, sum, 0, sum.length, MPI.DOUBLE, MPI.SUM, 0);
            if (world.Rank() == 0) {
                double[] mean = Arrays.stream(sum).map(v -> v / world.Size()).toArray();
                Lines.printf("# %s, CPU ms per rank (mean over ranks): first call %s; back to back, per call %s%n",
                        ops.get(k), ThreadCpu.describe(Arrays.copyOf(mean, kinds)),
                        ThreadCpu.describe(Arrays.copyOfRange(mean, kinds, 2 * kinds)));
            }
        }
    }

    private interface Pattern {
        void run();
    }

    private static Pattern pattern(String name, Intracomm world, int size, int bytes) {
        int ints = bytes / 4;
        return switch (name) {
            case "alltoall" -> {
                int[] send = new int[ints * size];
                int[] recv = new int[ints * size];
                yield () -> world.Alltoall(send, 0, ints, MPI.INT, recv, 0, ints, MPI.INT);
            }
            case "allreduce" -> {
                int[] send = new int[ints];
                int[] recv = new int[ints];
                yield () -> world.Allreduce(send, 0, recv, 0, ints, MPI.INT, MPI.SUM);
            }
            case "bcast" -> {
                int[] data = new int[ints];
                yield () -> world.Bcast(data, 0, ints, MPI.INT, 0);
            }
            default -> stencil(world, size, ints);
        };
    }

    /** Each rank exchanges a face with its six neighbours of a periodic 3D grid. */
    private static Pattern stencil(Intracomm world, int size, int ints) {
        int[] dims = new int[3];
        Cartcomm.Dims_create(size, dims);
        Cartcomm grid = world.Create_cart(dims, new boolean[]{true, true, true}, false);
        List<int[]> neighbours = new ArrayList<>();
        for (int d = 0; d < 3; d++) {
            ShiftParms s = grid.Shift(d, 1);
            neighbours.add(new int[]{s.rank_source, s.rank_dest});
        }
        int[][] out = new int[6][ints];
        int[][] in = new int[6][ints];
        return () -> {
            Request[] r = new Request[12];
            for (int d = 0; d < 3; d++) {
                int[] n = neighbours.get(d);
                for (int side = 0; side < 2; side++) {
                    int face = 2 * d + side;
                    r[2 * face] = grid.Irecv(in[face], 0, ints, MPI.INT, n[side], face);
                    // what goes to the dest side arrives at its source side: tag by the receiving face
                    r[2 * face + 1] = grid.Isend(out[face], 0, ints, MPI.INT, n[1 - side], face);
                }
            }
            Request.Waitall(r);
        };
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
