package dev.mpj.samples.ft;

/**
 * The NAS Parallel Benchmarks pseudo-random generator ({@code randdp}): the linear congruential
 * sequence {@code x(k+1) = a * x(k) mod 2^46}, computed exactly in double arithmetic by splitting the
 * operands into 23-bit halves, as NPB does. Seeds are odd integers in (1, 2^46) held in doubles; a
 * generated value is {@code 2^-46 * x(k+1)}, in (0, 1).
 */
public final class NpbRandom {
    /** FT's seed. */
    public static final double SEED = 314159265.0;
    /** FT's multiplier, 5^13. */
    public static final double A = 1220703125.0;

    private static final double R23 = 0x1p-23;
    private static final double R46 = R23 * R23;
    private static final double T23 = 0x1p23;
    private static final double T46 = T23 * T23;

    private NpbRandom() {
    }

    /** Advances {@code x[0]} by one step of multiplier {@code a} and returns the new value times 2^-46. */
    public static double randlc(double[] x, double a) {
        x[0] = next(x[0], a);
        return R46 * x[0];
    }

    /** {@code a * x mod 2^46} for integers {@code a, x} in [0, 2^46) held in doubles: exact, in double arithmetic. */
    static double next(double x, double a) {
        double a1 = trunc(R23 * a);
        double a2 = a - T23 * a1;
        double x1 = trunc(R23 * x);
        double x2 = x - T23 * x1;
        double t1 = a1 * x2 + a2 * x1;
        double t2 = trunc(R23 * t1);
        double z = t1 - T23 * t2;
        double t3 = T23 * z + a2 * x2;
        double t4 = trunc(R46 * t3);
        return t3 - T46 * t4;
    }

    /**
     * Fills {@code n} values into {@code y} from {@code offset} with stride 1 and advances {@code x[0]}
     * past them: {@code vranlc} with the same stream as n calls of {@link #randlc}.
     */
    public static void vranlc(int n, double[] x, double a, double[] y, int offset) {
        double a1 = trunc(R23 * a);
        double a2 = a - T23 * a1;
        double s = x[0];
        for (int i = 0; i < n; i++) {
            double x1 = trunc(R23 * s);
            double x2 = s - T23 * x1;
            double t1 = a1 * x2 + a2 * x1;
            double t2 = trunc(R23 * t1);
            double z = t1 - T23 * t2;
            double t3 = T23 * z + a2 * x2;
            double t4 = trunc(R46 * t3);
            s = t3 - T46 * t4;
            y[offset + i] = R46 * s;
        }
        x[0] = s;
    }

    /**
     * {@code a^exponent mod 2^46}, by squaring and multiplying with {@link #randlc}'s exact product
     * (NPB's {@code ipow46}; the result does not depend on the order of the products).
     */
    public static double ipow46(double a, long exponent) {
        if (exponent < 0) {
            throw new IllegalArgumentException("negative exponent " + exponent);
        }
        double result = 1;
        double q = a;
        for (long n = exponent; n > 0; n >>>= 1) {
            if ((n & 1) != 0) {
                result = next(result, q);
            }
            if (n > 1) {
                q = next(q, q);
            }
        }
        return result;
    }

    /** Truncation toward zero of a non-negative double below 2^53 (Fortran's {@code aint}). */
    private static double trunc(double v) {
        return (double) (long) v;
    }
}
