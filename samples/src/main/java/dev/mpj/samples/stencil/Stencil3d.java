package dev.mpj.samples.stencil;

import dev.mpj.samples.JobExit;
import dev.mpj.samples.Lines;
import dev.mpj.samples.ResultCsv;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

import java.util.List;

/**
 * A 3D 7-point stencil with halo exchange, the same kernel as a C reference implementation so that
 * results and times compare: every rank owns an N³ block of a process grid from {@code Dims_create};
 * each iteration exchanges the six faces, updates every interior point with
 * {@code unew = 0.4 u + 0.1 (sum of the 6 neighbours)}, and reduces the squared change with
 * {@code Allreduce}.
 * <pre>
 * ./mpjrun -np 8 stencil3d N ITERS [periodic=1] [--datatypes] [--overlap]
 * </pre>
 * Rank 0 prints one line of key=value: {@code total_s} (slowest rank's loop), {@code comm_us_per_iter},
 * {@code halo_us_per_iter} and {@code allreduce_us_per_iter} (means over ranks), {@code residual} (last
 * iteration), {@code res1} (first), {@code maxdiff} (last iteration's max |unew - u|) and {@code checksum}
 * (sum of u over the grid at the end). {@code --datatypes} sends the faces as derived datatypes instead of
 * packing them; the numbers are the same. {@code --overlap} starts each iteration's residual reduction with
 * {@code Iallreduce} and completes it after the next iteration's sweep, so the reduction progresses during the
 * halo exchange and the update; the residuals are the same, as nothing in the sweep depends on them.
 * {@code --per-iteration FILE|-} also writes every rank's halo, update and {@code Allreduce} time of every
 * iteration ({@link IterationTimes}), after the timed loop.
 */
public final class Stencil3d {
    private static final String NAME = "stencil3d";

    private Stencil3d() {
    }

    public static void main(String[] args) {
        String[] rest = MPI.Init(args);
        if (JobExit.helpAsked(rest)) {
            JobExit.usage(usage());
        }
        Options o = parse(rest);
        int n = o.n;

        StencilGrid grid = new StencilGrid(MPI.COMM_WORLD, o.periodic);
        Intracomm world = grid.comm();
        int rank = world.Rank();
        int np = world.Size();
        int[] c = grid.coords();
        StencilBlock block = new StencilBlock(n, n, n);
        block.initialise((long) c[0] * n, (long) c[1] * n, (long) c[2] * n);
        HaloExchange halo = o.datatypes ? new HaloExchange.Datatypes(world, grid, block)
                : new HaloExchange.Packed(world, grid, block);

        // two buffers each, so that with --overlap one reduction can be outstanding while the next is prepared
        double[][] local = new double[2][1];
        double[][] global = new double[2][1];
        IterationTimes perIteration = o.perIteration() == null ? null : new IterationTimes(o.iters);
        Request pending = null;
        double res1 = 0;
        double residual = 0;
        double haloSeconds = 0;
        double allreduceSeconds = 0;
        world.Barrier();
        double t0 = MPI.Wtime();
        for (int it = 0; it < o.iters; it++) {
            double h0 = MPI.Wtime();
            halo.exchange();
            double h1 = MPI.Wtime();
            int b = it % 2;
            local[b][0] = block.update();
            double a0 = MPI.Wtime();
            if (o.overlap) {
                if (pending != null) {
                    pending.Wait();
                }
                pending = world.Iallreduce(local[b], 0, global[b], 0, 1, MPI.DOUBLE, MPI.SUM);
            } else {
                world.Allreduce(local[b], 0, global[b], 0, 1, MPI.DOUBLE, MPI.SUM);
            }
            double a1 = MPI.Wtime();
            haloSeconds += h1 - h0;
            allreduceSeconds += a1 - a0;
            if (perIteration != null) {
                perIteration.record(it, h1 - h0, a0 - h1, a1 - a0);
            }
            int known = o.overlap ? it - 1 : it;
            if (known >= 0) {
                residual = Math.sqrt(global[known % 2][0]);
                if (known == 0) {
                    res1 = residual;
                }
            }
        }
        if (pending != null) {
            double a0 = MPI.Wtime();
            pending.Wait();
            allreduceSeconds += MPI.Wtime() - a0;
            residual = Math.sqrt(global[(o.iters - 1) % 2][0]);
            if (o.iters == 1) {
                res1 = residual;
            }
        }
        double loop = MPI.Wtime() - t0;

        double[] totalMax = new double[1];
        world.Reduce(new double[] {loop}, 0, totalMax, 0, 1, MPI.DOUBLE, MPI.MAX, 0);
        double[] times = new double[2];
        world.Reduce(new double[] {haloSeconds, allreduceSeconds}, 0, times, 0, 2, MPI.DOUBLE, MPI.SUM, 0);
        double[] maxdiff = new double[1];
        world.Allreduce(new double[] {block.maxdiff()}, 0, maxdiff, 0, 1, MPI.DOUBLE, MPI.MAX);
        double[] checksum = new double[1];
        world.Reduce(new double[] {block.sum()}, 0, checksum, 0, 1, MPI.DOUBLE, MPI.SUM, 0);

        if (perIteration != null) {
            perIteration.write(world, o.perIteration());
        }
        if (rank == 0) {
            int[] d = grid.dims();
            double perIter = 1e6 / (np * (double) Math.max(o.iters, 1));
            Lines.printf("stencil3d np=%d dims=%dx%dx%d n=%d iters=%d periodic=%d faces=%s"
                            + " total_s=%.6f comm_us_per_iter=%.3f halo_us_per_iter=%.3f allreduce_us_per_iter=%.3f"
                            + " residual=%.15e res1=%.15e maxdiff=%.15e checksum=%.15e%n",
                    np, d[0], d[1], d[2], n, o.iters, o.periodic ? 1 : 0, o.datatypes ? "datatypes" : "packed",
                    totalMax[0], (times[0] + times[1]) * perIter, times[0] * perIter, times[1] * perIter,
                    residual, res1, maxdiff[0], checksum[0]);
            if (o.csv() != null) {
                ResultCsv.write(o.csv(), List.of("np", "dims", "n", "iters", "periodic", "faces", "total_s",
                        "comm_us_per_iter", "halo_us_per_iter", "allreduce_us_per_iter", "residual", "checksum"),
                        List.of(np, d[0] + "x" + d[1] + "x" + d[2], n, o.iters, o.periodic ? 1 : 0,
                                o.datatypes ? "datatypes" : "packed", totalMax[0], (times[0] + times[1]) * perIter,
                                times[0] * perIter, times[1] * perIter, residual, checksum[0]));
            }
        }
        MPI.Finalize();
    }

    /**
     * The command line: N, ITERS, optional periodic flag (0 or 1, or periodic=0/1), optional --datatypes,
     * optional {@code --csv FILE|-}, optional {@code --per-iteration FILE|-}.
     */
    record Options(int n, int iters, boolean periodic, boolean datatypes, boolean overlap, String csv,
                   String perIteration) {
    }

    private static Options parse(String[] args) {
        int[] positional = new int[3];
        int count = 0;
        boolean datatypes = false;
        boolean overlap = false;
        String csv = null;
        String perIteration = null;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--csv")) {
                    if (i + 1 == args.length) {
                        throw new IllegalArgumentException("--csv needs a file name or -");
                    }
                    csv = args[++i];
                } else if (a.equals("--per-iteration")) {
                    if (i + 1 == args.length) {
                        throw new IllegalArgumentException("--per-iteration needs a file name or -");
                    }
                    perIteration = args[++i];
                } else if (a.equals("--datatypes")) {
                    datatypes = true;
                } else if (a.equals("--overlap")) {
                    overlap = true;
                } else if (count < 3) {
                    String v = count == 2 && a.startsWith("periodic=") ? a.substring("periodic=".length()) : a;
                    positional[count++] = Integer.parseInt(v);
                } else {
                    throw new IllegalArgumentException("too many arguments at '" + a + "'");
                }
            }
            if (count < 2) {
                throw new IllegalArgumentException("N and ITERS are required");
            }
            if (positional[0] < 1 || positional[1] < 1) {
                throw new IllegalArgumentException("N and ITERS must be at least 1");
            }
            if (count == 3 && positional[2] != 0 && positional[2] != 1) {
                throw new IllegalArgumentException("periodic must be 0 or 1");
            }
            if ((long) (positional[0] + 2) * (positional[0] + 2) * (positional[0] + 2) > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("N = " + positional[0] + " is too large for one array per rank");
            }
        } catch (NumberFormatException e) {
            JobExit.refuse(NAME, "not a number: " + e.getMessage() + "\n" + usage());
        } catch (IllegalArgumentException e) {
            JobExit.refuse(NAME, e.getMessage() + "\n" + usage());
        }
        return new Options(positional[0], positional[1], count < 3 || positional[2] == 1, datatypes, overlap, csv,
                perIteration);
    }

    private static String usage() {
        return "usage: stencil3d N ITERS [periodic=1] [--datatypes] [--overlap] [--csv FILE|-] [--per-iteration FILE|-]   (each rank owns an N^3 block)";
    }
}
