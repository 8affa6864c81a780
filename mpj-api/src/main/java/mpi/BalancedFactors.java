package mpi;

import java.util.Arrays;

/**
 * The most balanced way to write {@code n} as a product of {@code k} factors, the rule of
 * {@code MPI_Dims_create} as MPICH implements it (after Träff and Lübbe, "Specification guideline
 * violations by MPI_Dims_create", EuroMPI 2015): the factors minimise largest minus smallest, and are
 * returned in non-increasing order. Among equally balanced choices the one with the smallest largest
 * factor (then the smallest second factor, and so on) wins, which is how MPICH spreads primes
 * (20 in four: 5×2×2×1, not 5×4×1×1).
 *
 * <p>A depth-first search over the divisors of {@code n}, factors chosen in non-increasing order,
 * cut off as soon as a partial choice cannot beat the best balance found: exact, and fast for every
 * {@code int}.
 */
final class BalancedFactors {
    private final int[] divisors;
    private final int k;
    private final int[] chosen;
    private int[] best;
    private long bestBalance = Long.MAX_VALUE;

    private BalancedFactors(int n, int k) {
        this.divisors = divisors(n);
        this.k = k;
        this.chosen = new int[k];
    }

    /** {@code k} ≥ 1 factors of {@code n} ≥ 1, non-increasing, largest minus smallest as small as possible. */
    static int[] of(int n, int k) {
        if (n < 1 || k < 1) {
            throw new IllegalArgumentException("need n >= 1 and k >= 1, got n=" + n + ", k=" + k);
        }
        BalancedFactors search = new BalancedFactors(n, k);
        search.choose(0, n, n);
        return search.best;
    }

    /** Picks factor {@code i}, at most {@code limit}, of what is left to factor, {@code rest}. */
    private void choose(int i, int rest, int limit) {
        if (i == k - 1) {
            if (rest <= limit) {
                chosen[i] = rest;
                long balance = (long) chosen[0] - rest;
                if (balance < bestBalance) {
                    bestBalance = balance;
                    best = chosen.clone();
                }
            }
            return;
        }
        int slots = k - i;
        for (int d : divisors) {
            if (d > limit) {
                break;
            }
            // the slots left hold factors of at most d each, so d^slots must reach rest
            if (rest % d != 0 || !powerReaches(d, slots, rest)) {
                continue;
            }
            // the smallest of the later factors is at most the (slots-1)-th root of rest / d; a larger d
            // lowers that bound (and, as the first factor, raises the largest), so once the choice cannot
            // beat the best balance no larger d can
            if (!mayBeat(i == 0 ? d : chosen[0], slots - 1, rest / d)) {
                break;
            }
            chosen[i] = d;
            choose(i + 1, rest / d, d);
        }
    }

    /**
     * Whether factors whose largest is {@code largest} and whose remaining {@code slots} multiply to
     * {@code rest} could have a balance below the best: the smallest of them is at most
     * floor(rest^(1/slots)), so that needs some t ≥ largest - bestBalance + 1 with t^slots ≤ rest.
     */
    private boolean mayBeat(int largest, int slots, int rest) {
        long needed = bestBalance == Long.MAX_VALUE ? 1 : largest - bestBalance + 1;
        return needed <= 1 || powerAtMost(needed, slots, rest);
    }

    /** Whether base^exponent ≥ target. */
    private static boolean powerReaches(long base, int exponent, long target) {
        long p = 1;
        for (int e = 0; e < exponent; e++) {
            p *= base;
            if (p >= target) {
                return true;
            }
        }
        return p >= target;
    }

    /** Whether base^exponent ≤ limit (base ≥ 1). */
    private static boolean powerAtMost(long base, int exponent, long limit) {
        long p = 1;
        for (int e = 0; e < exponent; e++) {
            p *= base;
            if (p > limit) {
                return false;
            }
        }
        return true;
    }

    /** The divisors of n in ascending order. */
    static int[] divisors(int n) {
        int[] small = new int[64];
        int[] large = new int[64];
        int s = 0;
        int l = 0;
        for (int d = 1; (long) d * d <= n; d++) {
            if (n % d == 0) {
                if (s == small.length) {
                    small = Arrays.copyOf(small, 2 * s);
                    large = Arrays.copyOf(large, 2 * s);
                }
                small[s++] = d;
                if (d != n / d) {
                    large[l++] = n / d;
                }
            }
        }
        int[] all = Arrays.copyOf(small, s + l);
        for (int j = 0; j < l; j++) {
            all[s + j] = large[l - 1 - j];
        }
        return all;
    }
}
