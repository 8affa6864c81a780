package dev.mpj.samples.bench;

import dev.mpj.samples.JobExit;
import mpi.MPI;

/**
 * Options shared by the benchmarks, OSU style: {@code [-m MIN:MAX] [-i ITERATIONS] [-x WARMUP] [--csv FILE|-]}.
 * Sizes go by powers of two from MIN (0 allowed) to MAX bytes. Iterations and warm-up apply up to 8 KiB;
 * above, a tenth of them, as the OSU benchmarks do.
 */
final class BenchOptions {
    private static final int LARGE = 8192;

    final int minSize;
    final int maxSize;
    final int iterations;
    final int warmup;
    /** Where the CSV goes: a file, "-" for standard output after the table, or null for none. */
    final String csv;

    private BenchOptions(int minSize, int maxSize, int iterations, int warmup, String csv) {
        this.minSize = minSize;
        this.maxSize = maxSize;
        this.iterations = iterations;
        this.warmup = warmup;
        this.csv = csv;
    }

    /**
     * The options of a benchmark between ranks 0 and 1 (called after {@code MPI.Init}): a bad option or a job of
     * fewer than two ranks ends the job with a message and status {@link JobExit#REFUSED}.
     */
    static BenchOptions forPairOfRanks(String[] args, String name, int defaultMin, int defaultMax,
                                       int defaultIterations, int defaultWarmup) {
        BenchOptions o = null;
        try {
            o = parse(args, name, defaultMin, defaultMax, defaultIterations, defaultWarmup);
        } catch (IllegalArgumentException e) {
            JobExit.refuse(name, e.getMessage());
        }
        if (MPI.COMM_WORLD.Size() < 2) {
            JobExit.refuse(name, "needs at least 2 ranks");
        }
        return o;
    }

    /**
     * @throws IllegalArgumentException with a usage line on a bad or unknown option
     */
    static BenchOptions parse(String[] args, String name, int defaultMin, int defaultMax, int defaultIterations,
                              int defaultWarmup) {
        int min = defaultMin;
        int max = defaultMax;
        int iterations = defaultIterations;
        int warmup = defaultWarmup;
        String csv = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "-m" -> {
                        String[] range = value(args, ++i).split(":");
                        if (range.length == 1) {
                            max = Integer.parseInt(range[0]);
                        } else {
                            min = Integer.parseInt(range[0]);
                            max = Integer.parseInt(range[1]);
                        }
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
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "\nusage: " + name
                    + " [-m [MIN:]MAX] [-i ITERATIONS] [-x WARMUP] [--csv FILE|-]");
        }
        return new BenchOptions(min, max, iterations, warmup, csv);
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
