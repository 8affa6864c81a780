package dev.mpj.samples.ft;

import mpi.Intracomm;

/**
 * One rank's share of the FT problem: the arrays {@code u0} (the transformed initial condition,
 * evolved in place), {@code u1}, {@code u2} (work) and {@code twiddle}, and NPB's steps on them. MPI
 * is used only by the transposes of {@link Fft3d}; the checksum reduction is the caller's.
 */
final class FtSolver {
    /** Diffusion constant of the evolution operator. */
    private static final double ALPHA = 1.0e-6;
    /** Points per call of the evolve's innermost loop, and its calls per call of the loop above it. */
    private static final int RUN = 32;

    private final FtLayout layout;
    private final Fft3d fft;
    final double[] u0;
    final double[] u1;
    final double[] u2;
    final double[] twiddle;
    private final FtTimers timers;

    FtSolver(FtLayout layout, Intracomm slice1, Intracomm slice2, FtTimers timers) {
        this.layout = layout;
        this.timers = timers;
        this.fft = new Fft3d(layout, slice1, slice2, timers);
        int n = layout.ntdivnp;
        u0 = new double[2 * n];
        u1 = new double[2 * n];
        u2 = new double[2 * n];
        twiddle = new double[n];
    }

    /**
     * Bytes of the heap arrays one rank holds for {@code layout}; the Alltoall's send and receive buffers are
     * {@code MPI.Alloc_mem} memory, off the heap.
     */
    static long bytesPerRank(FtClass cls, int np) {
        long points = (long) cls.nx * cls.ny * cls.nz / np;
        return points * (3 * 16 + 8);
    }

    /** The timed setup and first transform: index map, initial conditions, forward FFT of u1 into u0. */
    void setupAndForward() {
        timers.start(FtTimers.SETUP);
        computeIndexMap();
        computeInitialConditions(u1);
        timers.stop(FtTimers.SETUP);
        fft.forward(u1, u0);
    }

    /** One iteration before its checksum: evolve u0 by one time step, inverse FFT into u2. */
    void step() {
        timers.start(FtTimers.EVOLVE);
        evolve();
        timers.stop(FtTimers.EVOLVE);
        fft.inverse(u1, u2);
    }

    /**
     * {@code twiddle = exp(-4 α π² (ī² + j̄² + k̄²))} over layout 3, with ī = mod(i-1+n/2, n) - n/2 mapping
     * 1-based indices to 0..n/2-1, -n/2..-1.
     */
    void computeIndexMap() {
        FtClass c = layout.cls;
        int[] d = layout.dims[3];
        double ap = -4.0 * ALPHA * Math.PI * Math.PI;
        if (layout.kind == FtLayout.Kind.ZERO_D) {
            // (x, y, z): lines along x
            int[] ii2 = squaredWaveNumbers(layout.xstart[3], c.nx, d[0]);
            int[] jj2 = squaredWaveNumbers(layout.ystart[3], c.ny, d[1]);
            int[] kk2 = squaredWaveNumbers(layout.zstart[3], c.nz, d[2]);
            for (int k = 0; k < d[2]; k++) {
                for (int j = 0; j < d[1]; j++) {
                    twiddleLine(ap, jj2[j] + kk2[k], ii2, d[0] * (j + d[1] * k));
                }
            }
            return;
        }
        // layout 3 is (z, x, y): lines along z
        int[] ii2 = squaredWaveNumbers(layout.xstart[3], c.nx, d[1]);
        int[] jj2 = squaredWaveNumbers(layout.ystart[3], c.ny, d[2]);
        int[] kk2 = squaredWaveNumbers(layout.zstart[3], c.nz, d[0]);
        for (int i = 0; i < d[1]; i++) {
            for (int j = 0; j < d[2]; j++) {
                twiddleLine(ap, ii2[i] + jj2[j], kk2, d[0] * (i + d[1] * j));
            }
        }
    }

    /**
     * The squared wave numbers of {@code count} points of a dimension of {@code n} from 1-based {@code start}:
     * {@code (mod(k + start - 2 + n/2, n) - n/2)²} for k = 1..count. Computed once per dimension rather than at
     * every point, where its integer division is much of the point's cost.
     */
    static int[] squaredWaveNumbers(int start, int n, int count) {
        int[] squares = new int[count];
        for (int k = 1; k <= count; k++) {
            int w = Math.floorMod(k + start - 2 + n / 2, n) - n / 2;
            squares[k - 1] = w * w;
        }
        return squares;
    }

    /**
     * One line of {@link #computeIndexMap} along the array's first dimension, whose points are contiguous:
     * {@code twiddle[at + p] = exp(ap (others + squares[p]))} for every p of {@code squares}, {@code others} being
     * the line's squared wave numbers in the other two dimensions (integers, so their sum does not depend on the
     * order). Contiguous, as the JIT compiles a loop indexed by its counter much better than one that steps a
     * second index by a stride it does not know. A method called once per line, so that the JIT compiles it from
     * whole calls rather than on the stack of the one call of {@code computeIndexMap}, whose profile has not yet
     * seen the outer loops end.
     */
    private void twiddleLine(double ap, int others, int[] squares, int at) {
        double[] t = twiddle;
        for (int p = 0; p < squares.length; p++) {
            t[at + p] = Math.exp(ap * (double) (squares[p] + others));
        }
    }

    /**
     * Fills {@code u} (layout 1) from the NPB generator: the global sequence runs over (re, im) pairs in
     * x-fastest order, so the rank jumps to its first element and then from z-plane to z-plane.
     */
    void computeInitialConditions(double[] u) {
        FtClass c = layout.cls;
        int[] d = layout.dims[1];
        double[] start = {NpbRandom.SEED};
        long skip = 2L * c.nx * ((long) (layout.zstart[1] - 1) * c.ny + (layout.ystart[1] - 1));
        NpbRandom.randlc(start, NpbRandom.ipow46(NpbRandom.A, skip));
        double planeStride = NpbRandom.ipow46(NpbRandom.A, 2L * c.nx * c.ny);
        int line = 2 * c.nx;
        int plane = line * d[1];
        double[] x0 = new double[1];
        for (int k = 0; k < d[2]; k++) {
            x0[0] = start[0];
            // a call per x line, not per plane, so that the JIT compiles vranlc from whole calls rather than on the
            // stack of the first, whose profile has not seen its loop end; x0 carries the sequence on
            for (int j = 0; j < d[1]; j++) {
                NpbRandom.vranlc(line, x0, NpbRandom.A, u, plane * k + line * j);
            }
            if (k != d[2] - 1) {
                NpbRandom.randlc(start, planeStride);
            }
        }
    }

    /**
     * {@code u0 = u0 * twiddle; u1 = u0}: one more time step in Fourier space (the factor compounds). In runs of
     * {@link #RUN} points, {@link #RUN} runs a call to {@link #evolveRuns}: every loop is a few dozen passes a call, so
     * the JIT compiles both methods from whole calls within the first evolve (the untimed warm-up's), rather than one
     * loop on the stack while it runs, from a profile in which that loop never ended (code thrown away at its end).
     */
    void evolve() {
        int chunk = RUN * RUN;
        for (int n = 0; n < twiddle.length; n += chunk) {
            evolveRuns(n, Math.min(n + chunk, twiddle.length));
        }
    }

    private void evolveRuns(int from, int to) {
        for (int n = from; n < to; n += RUN) {
            evolveRun(n, Math.min(n + RUN, to));
        }
    }

    private void evolveRun(int from, int to) {
        double[] t = twiddle;
        double[] a = u0;
        double[] b = u1;
        for (int n = from, e = 2 * from; n < to; n++, e += 2) {
            double f = t[n];
            double re = a[e] * f;
            double im = a[e + 1] * f;
            a[e] = re;
            a[e + 1] = im;
            b[e] = re;
            b[e + 1] = im;
        }
    }

    /**
     * This rank's part of the checksum of {@code u} (layout 1): the sum of the elements it owns among
     * the 1024 points (mod(j, nx), mod(3j, ny), mod(5j, nz)), divided by the number of grid points.
     */
    double[] localChecksum(double[] u) {
        FtClass c = layout.cls;
        int[] d = layout.dims[1];
        double re = 0, im = 0;
        for (int j = 1; j <= 1024; j++) {
            int q = j % c.nx + 1;
            if (q >= layout.xstart[1] && q <= layout.xend[1]) {
                int r = 3 * j % c.ny + 1;
                if (r >= layout.ystart[1] && r <= layout.yend[1]) {
                    int s = 5 * j % c.nz + 1;
                    if (s >= layout.zstart[1] && s <= layout.zend[1]) {
                        int at = 2 * ((q - layout.xstart[1]) + d[0] * ((r - layout.ystart[1]) + d[1] * (s - layout.zstart[1])));
                        re += u[at];
                        im += u[at + 1];
                    }
                }
            }
        }
        double n = c.ntotal();
        return new double[] {re / n, im / n};
    }
}
