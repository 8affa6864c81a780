package dev.mpj.samples.bench;

import dev.mpj.samples.JobExit;
import mpi.MPI;

import java.util.EnumSet;
import java.util.Set;

/**
 * Options shared by the benchmarks, OSU style: {@code [-m [MIN:]MAX] [-f] [--buffer heap|alloc-mem]
 * [-i ITERATIONS] [-x WARMUP] [--csv FILE|-]}. Sizes go by powers of two from MIN (0 allowed) to MAX bytes.
 * Iterations and warm-up apply up to 8 KiB; above, a tenth of them, as the OSU benchmarks do. {@code -m},
 * {@code -f} and {@code --buffer} are taken only by the benchmarks that declare them ({@link Accepts}), so an
 * option a benchmark would ignore is refused instead.
 */
final class BenchOptions {
    private static final int LARGE = 8192;

    /** Options beyond {@code -i}, {@code -x} and {@code --csv} that a benchmark takes. */
    enum Accepts {
        /** {@code -m [MIN:]MAX}: the benchmark sweeps message sizes. */
        SIZES,
        /** {@code -f}: full report, minimum and maximum over ranks and the iteration count beside the average. */
        FULL,
        /** {@code --buffer heap|alloc-mem}: the benchmark sends from and receives into buffers of that kind. */
        BUFFER
    }

    final int minSize;
    final int maxSize;
    final int iterations;
    final int warmup;
    /** {@code -f}: report min and max over ranks and the iteration count, as OSU's {@code -f}. */
    final boolean full;
    /** {@code --buffer}: the kind of memory the messages live in, heap arrays unless asked. */
    final BufferKind buffer;
    /** Where the CSV goes: a file, "-" for standard output after the table, or null for none. */
    final String csv;

    private BenchOptions(int minSize, int maxSize, int iterations, int warmup, boolean full, BufferKind buffer,
                         String csv) {
        this.minSize = minSize;
        this.maxSize = maxSize;
        this.iterations = iterations;
        this.warmup = warmup;
        this.full = full;
        this.buffer = buffer;
        this.csv = csv;
    }

    /**
     * The options of a benchmark between ranks 0 and 1 (called after {@code MPI.Init}): a bad option or a job of
     * fewer than two ranks ends the job with a message and status {@link JobExit#REFUSED}.
     */
    static BenchOptions forPairOfRanks(String[] args, String name, int defaultMin, int defaultMax,
                                       int defaultIterations, int defaultWarmup) {
        return forJob(args, name, defaultMin, defaultMax, defaultIterations, defaultWarmup,
                EnumSet.of(Accepts.SIZES));
    }

    /**
     * The options of a benchmark that needs at least two ranks (called after {@code MPI.Init}, on every rank): a
     * bad option or a job of one rank ends the job with a message and status {@link JobExit#REFUSED}.
     */
    static BenchOptions forJob(String[] args, String name, int defaultMin, int defaultMax, int defaultIterations,
                               int defaultWarmup, Set<Accepts> accepts) {
        if (JobExit.helpAsked(args)) {
            JobExit.usage(usage(name, accepts));
        }
        BenchOptions o = null;
        try {
            o = parse(args, name, defaultMin, defaultMax, defaultIterations, defaultWarmup, accepts);
        } catch (IllegalArgumentException e) {
            JobExit.refuse(name, e.getMessage());
        }
        if (MPI.COMM_WORLD.Size() < 2) {
            JobExit.refuse(name, "needs at least 2 ranks");
        }
        return o;
    }

    /** The usage line of benchmark {@code name}. */
    static String usage(String name, Set<Accepts> accepts) {
        return "usage: " + name
                + (accepts.contains(Accepts.SIZES) ? " [-m [MIN:]MAX]" : "")
                + (accepts.contains(Accepts.FULL) ? " [-f]" : "")
                + (accepts.contains(Accepts.BUFFER) ? " [--buffer heap|alloc-mem]" : "")
                + " [-i ITERATIONS] [-x WARMUP] [--csv FILE|-]";
    }

    /**
     * @throws IllegalArgumentException with a usage line on a bad option, or one the benchmark does not accept
     */
    static BenchOptions parse(String[] args, String name, int defaultMin, int defaultMax, int defaultIterations,
                              int defaultWarmup, Set<Accepts> accepts) {
        int min = defaultMin;
        int max = defaultMax;
        int iterations = defaultIterations;
        int warmup = defaultWarmup;
        boolean full = false;
        BufferKind buffer = BufferKind.HEAP;
        String csv = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "-m" -> {
                        if (!accepts.contains(Accepts.SIZES)) {
                            throw new IllegalArgumentException("-m: this benchmark has no message sizes");
                        }
                        String[] range = value(args, ++i).split(":");
                        if (range.length == 1) {
                            max = Integer.parseInt(range[0]);
                        } else {
                            min = Integer.parseInt(range[0]);
                            max = Integer.parseInt(range[1]);
                        }
                    }
                    case "-f" -> {
                        if (!accepts.contains(Accepts.FULL)) {
                            throw new IllegalArgumentException("unknown option -f");
                        }
                        full = true;
                    }
                    case "--buffer" -> {
                        if (!accepts.contains(Accepts.BUFFER)) {
                            throw new IllegalArgumentException("unknown option --buffer");
                        }
                        buffer = BufferKind.of(value(args, ++i));
                    }
                    case "-i" -> iterations = Integer.parseInt(value(args, ++i));
                    case "-x" -> warmup = Integer.parseInt(value(args, ++i));
                    case "--csv" -> csv = value(args, ++i);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (min < 0 || max < min || max > (1 << 30) || iterations < 1 || warmup < 0) {
                throw new IllegalArgumentException("sizes 0 <= MIN <= MAX <= 2^30, iterations >= 1, warm-up >= 0");
            }
        } catch (IllegalArgumentException e) {
            // a NumberFormatException is one too, and gets the usage line like any other bad option
            String problem = e instanceof NumberFormatException ? "not a number: " + e.getMessage() : e.getMessage();
            throw new IllegalArgumentException(problem + "\n" + usage(name, accepts));
        }
        return new BenchOptions(min, max, iterations, warmup, full, buffer, csv);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    /** The next size after {@code size}: 0, 1, 2, 4, … */
    static int next(int size) {
        return size == 0 ? 1 : size * 2;
    }

    int iterationsFor(int size) {
        return size > LARGE ? Math.max(1, iterations / 10) : iterations;
    }

    int warmupFor(int size) {
        return size > LARGE ? warmup / 10 : warmup;
    }
}
