package dev.mpj.samples.ft;

/**
 * The NAS Parallel Benchmarks pseudo-random generator: the linear congruential sequence
 * {@code x(k+1) = a * x(k) mod 2^46}. It is computed as NPB's {@code randi8} does, with a 64-bit integer
 * product masked to 46 bits (exact: 2^46 divides 2^64), which gives the same values as the double-precision
 * {@code randdp} with its 23-bit halves at a fraction of the cost (one multiply and one mask per value
 * instead of a chain of about ten floating-point operations and three truncations). Seeds are odd
 * integers in (1, 2^46) held in doubles, as in NPB; a generated value is {@code 2^-46 * x(k+1)}, in (0, 1).
 */
public final class NpbRandom {
    /** FT's seed. */
    public static final double SEED = 314159265.0;
    /** FT's multiplier, 5^13. */
    public static final double A = 1220703125.0;

    private static final double R46 = 0x1p-46;
    private static final long MASK46 = (1L << 46) - 1;

    private NpbRandom() {
    }

    /** Advances {@code x[0]} by one step of multiplier {@code a} and returns the new value times 2^-46. */
    public static double randlc(double[] x, double a) {
        x[0] = next(x[0], a);
        return R46 * x[0];
    }

    /** {@code a * x mod 2^46} for integers {@code a, x} in [0, 2^46) held in doubles. */
    static double next(double x, double a) {
        return (double) (((long) x * (long) a) & MASK46);
    }

    /**
     * Fills {@code n} values into {@code y} from {@code offset} with stride 1 and advances {@code x[0]}
     * past them: {@code vranlc} with the same stream as n calls of {@link #randlc}.
     */
    public static void vranlc(int n, double[] x, double a, double[] y, int offset) {
        long multiplier = (long) a;
        long s = (long) x[0];
        for (int i = 0; i < n; i++) {
            s = (s * multiplier) & MASK46;
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
}
