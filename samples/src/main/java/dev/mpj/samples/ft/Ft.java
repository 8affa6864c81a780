package dev.mpj.samples.ft;

import dev.mpj.samples.JobExit;
import dev.mpj.samples.Lines;
import dev.mpj.samples.ResultCsv;
import mpi.Intracomm;
import mpi.MPI;

import java.util.List;
import java.util.Locale;

/**
 * NAS Parallel Benchmark FT (MPI version 3.4) in Java: solves a 3D diffusion equation spectrally,
 * with forward and inverse 3D FFTs over slab (1D) or pencil (2D) decompositions, and checks the
 * per-iteration checksums against NPB's reference values.
 * <pre>
 * ./mpjrun -np 4 ft [--class S|W|A|B|C] [--grid NP1xNP2]
 * </pre>
 * The process count must be a power of two. With {@code NPB_TIMER_FLAG=1} in the environment rank 0 also
 * prints the time per phase (minimum, maximum and average over ranks). {@code --grid} forces the process grid as NPB's
 * {@code inputft.data} does (for example {@code 2x1} for 2D pencils on two ranks); by default NPB's
 * choice applies: 0D on one rank, 1D slabs up to nz ranks, 2D beyond.
 */
public final class Ft {
    private static final String NAME = "ft";

    private Ft() {
    }

    public static void main(String[] args) {
        String[] rest = MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int me = world.Rank();
        int np = world.Size();
        FtLayout layout = layout(rest, np, me);

        // as NPB, rank 0's parameters are broadcast (every rank parsed the same arguments)
        int[] params = {layout.np1, layout.np2, layout.kind.ordinal(), layout.cls.niter};
        world.Bcast(params, 0, params.length, MPI.INT, 0);
        FtClass cls = layout.cls;
        int niter = params[3];
        Intracomm[] slices = slices(layout);
        FtTimers timers = new FtTimers(timersEnabled());
        FtSolver solver = new FtSolver(layout, slices[0], slices[1], timers);
        if (me == 0) {
            printHeader(layout, np);
        }

        // untimed warm-up: NPB's first transform, which touches every array, then one whole iteration, which NPB does
        // not run before its timer. The evolve, the row copies of the inverse's transforms and the inverse's transpose
        // run only in iterations: without it the JIT compiles them, and the message path at the Alltoall's real size,
        // in the timed part. The timed part starts again from the setup, as NPB's, so it times the same work.
        solver.setupAndForward();
        iterate(solver, world, timers, new double[2]);

        timers.clear();
        world.Barrier();
        double t0 = MPI.Wtime();
        solver.setupAndForward();
        double[][] sums = new double[niter][2];
        for (int iter = 1; iter <= niter; iter++) {
            iterate(solver, world, timers, sums[iter - 1]);
            if (me == 0) {
                Lines.printf(" T =%5d     Checksum =%22.12E%22.12E%n", iter, sums[iter - 1][0],
                        sums[iter - 1][1]);
            }
        }
        boolean verified = me == 0 && cls.verify(sums);
        double seconds = MPI.Wtime() - t0;
        if (me == 0) {
            System.out.println(verified ? " Result verification successful" : " Result verification failed");
            Lines.printf(" class = %s%n", cls.name());
            printResults(cls, np, seconds, verified);
            String csv = ResultCsv.target(rest);
            if (csv != null) {
                ResultCsv.write(csv, List.of("class", "np", "grid", "iterations", "seconds", "mops", "verified"),
                        List.of(cls.name(), np, layout.np1 + "x" + layout.np2, cls.niter, seconds,
                                cls.mops(seconds), verified));
            }
        }
        timers.print(world);
        MPI.Finalize();
    }

    /** One of NPB's iterations: a time step, its inverse transform and the checksum, summed into rank 0's {@code sum}. */
    private static void iterate(FtSolver solver, Intracomm world, FtTimers timers, double[] sum) {
        solver.step();
        timers.start(FtTimers.CHECKSUM);
        double[] local = solver.localChecksum(solver.u2);
        world.Reduce(local, 0, sum, 0, 2, MPI.DOUBLE, MPI.SUM, 0);
        timers.stop(FtTimers.CHECKSUM);
    }

    /** NPB_TIMER_FLAG set to 1 or on (as NPB 3.4) asks for the per-phase timers. */
    private static boolean timersEnabled() {
        String flag = System.getenv("NPB_TIMER_FLAG");
        return flag != null && (flag.equals("1") || flag.equalsIgnoreCase("on") || flag.equalsIgnoreCase("true"));
    }

    /** Parses the arguments and checks the process count, memory and grid, refusing the job on any problem. */
    private static FtLayout layout(String[] args, int np, int me) {
        FtClass cls = FtClass.S;
        int[] grid = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--class" -> cls = FtClass.parse(value(args, ++i, "--class"));
                    case "--grid" -> grid = parseGrid(value(args, ++i, "--grid"));
                    case "--csv" -> value(args, ++i, "--csv");
                    case "-h", "--help" -> JobExit.usage(usage());
                    default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
                }
            }
        } catch (IllegalArgumentException e) {
            JobExit.refuse(NAME, e.getMessage() + "\n" + usage());
        }
        if (Integer.bitCount(np) != 1) {
            JobExit.refuse(NAME, "the number of processes must be a power of two (1, 2, 4, 8 ...), as in NPB FT; got "
                    + np);
        }
        if (grid == null) {
            grid = FtLayout.defaultGrid(cls, np);
        }
        if (grid[0] * grid[1] != np) {
            JobExit.refuse(NAME, "process grid " + grid[0] + "x" + grid[1] + " has " + grid[0] * grid[1]
                    + " ranks, the job " + np);
        }
        long need = FtSolver.bytesPerRank(cls, np);
        long max = Runtime.getRuntime().maxMemory();
        if (need + (32L << 20) > max) {
            JobExit.refuse(NAME, String.format(Locale.ROOT,
                    "class %s needs about %.2f GiB per rank on %d ranks, but this JVM may use only %.2f GiB:"
                            + " give the ranks more heap (MPJ_JVM_OPTS=-Xmx...) or use more ranks",
                    cls.name(), need / (double) (1L << 30), np, max / (double) (1L << 30)));
        }
        try {
            return new FtLayout(cls, grid[0], grid[1], me);
        } catch (IllegalArgumentException e) {
            JobExit.refuse(NAME, e.getMessage());
            throw e;
        }
    }

    /**
     * NPB's two communicators over the process grid ({@code MPI_Comm_split} by row and by column, as NPB's
     * setup); one side of a 1-wide grid is just this rank, the other the world, with no split needed.
     */
    private static Intracomm[] slices(FtLayout layout) {
        Intracomm world = MPI.COMM_WORLD;
        Intracomm self = (Intracomm) MPI.COMM_SELF;
        if (layout.np1 == 1) {
            return new Intracomm[] {world, self};
        }
        if (layout.np2 == 1) {
            return new Intracomm[] {self, world};
        }
        return new Intracomm[] {world.Split(layout.me1, layout.me2), world.Split(layout.me2, layout.me1)};
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    static int[] parseGrid(String s) {
        String[] parts = s.toLowerCase(Locale.ROOT).split("x");
        try {
            if (parts.length == 2) {
                int np1 = Integer.parseInt(parts[0]);
                int np2 = Integer.parseInt(parts[1]);
                if (np1 > 0 && np2 > 0) {
                    return new int[] {np1, np2};
                }
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--grid wants NP1xNP2 with positive numbers, for example 2x2; got '" + s + "'");
    }

    private static String usage() {
        return "usage: ft [--class S|W|A|B|C] [--grid NP1xNP2] [--csv FILE|-]   (a power-of-two number of processes)";
    }

    private static void printHeader(FtLayout layout, int np) {
        FtClass c = layout.cls;
        Lines.printf("%n%n NAS Parallel Benchmarks 3.4 -- FT Benchmark (mpj Java port)%n%n");
        Lines.printf(" Size                : %4dx%4dx%4d%n", c.nx, c.ny, c.nz);
        Lines.printf(" Iterations          : %14d%n", c.niter);
        Lines.printf(" Number of processes : %14d%n", np);
        Lines.printf(" Processor array     : %9dx%4d%n", layout.np1, layout.np2);
        Lines.printf(" Layout type         : %14s%n%n", layout);
    }

    private static void printResults(FtClass c, int np, double seconds, boolean verified) {
        double mops = c.mops(seconds);
        Lines.printf("%n%n FT Benchmark Completed.%n");
        Lines.printf(" Class           = %24s%n", c.name());
        Lines.printf(" Size            = %14dx%4dx%4d%n", c.nx, c.ny, c.nz);
        Lines.printf(" Iterations      = %24d%n", c.niter);
        Lines.printf(" Time in seconds = %24.2f%n", seconds);
        Lines.printf(" Total processes = %24d%n", np);
        Lines.printf(" Mop/s total     = %24.2f%n", mops);
        Lines.printf(" Mop/s/process   = %24.2f%n", mops / np);
        Lines.printf(" Operation type  = %24s%n", "floating point");
        Lines.printf(" Verification    = %24s%n", verified ? "SUCCESSFUL" : "UNSUCCESSFUL");
        Lines.printf(" Version         = %24s%n", "3.4 (mpj)");
    }
}
