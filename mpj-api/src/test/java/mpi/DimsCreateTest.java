package mpi;

import static mpi.MpiTestSupport.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Cartcomm.Dims_create: MPICH's balanced factorisations, fixed entries, and its errors. */
class DimsCreateTest {
    private static int[] dims(int nnodes, int... given) {
        int[] dims = given.clone();
        Cartcomm.Dims_create(nnodes, dims);
        return dims;
    }

    private static int[] parse(String dims) {
        return Arrays.stream(dims.split("x")).mapToInt(Integer::parseInt).toArray();
    }

    @ParameterizedTest(name = "{0} in {1} dims -> {2}")
    @CsvSource({
            "1, 3, 1x1x1", "2, 3, 2x1x1", "4, 3, 2x2x1", "8, 3, 2x2x2", "6, 3, 3x2x1", "12, 3, 3x2x2",
            "16, 3, 4x2x2", "27, 3, 3x3x3", "100, 3, 5x5x4", "7, 2, 7x1", "6, 2, 3x2", "12, 2, 4x3", "16, 2, 4x4",
            "20, 4, 5x2x2x1", "64, 4, 4x4x2x2", "30, 3, 5x3x2", "1024, 3, 16x8x8", "5, 1, 5"})
    void fillsFreeDimensionsLikeMpich(int nnodes, int ndims, String expected) {
        assertArrayEquals(parse(expected), dims(nnodes, new int[ndims]));
    }

    @Test
    void keepsGivenEntriesAndBalancesTheRest() {
        assertArrayEquals(new int[] {2, 3, 2}, dims(12, 0, 3, 0));
        assertArrayEquals(new int[] {1, 4, 2}, dims(8, 1, 0, 0));
        assertArrayEquals(new int[] {2, 2}, dims(8, 2, 2), "all given: left as they are");
    }

    @Test
    void everyResultIsTheMostBalancedNonIncreasingFactorisation() {
        for (int n = 1; n <= 400; n++) {
            for (int k = 1; k <= 4; k++) {
                int[] got = BalancedFactors.of(n, k);
                assertEquals(n, Arrays.stream(got).reduce(1, (a, b) -> a * b), "product for " + n);
                for (int i = 1; i < k; i++) {
                    assertTrue(got[i - 1] >= got[i], n + " in " + k + ": " + Arrays.toString(got));
                }
                assertEquals(bruteForceBalance(n, k, n), got[0] - got[k - 1], n + " in " + k + ": " + Arrays.toString(got));
            }
        }
    }

    /** The smallest largest-minus-smallest over all non-increasing factorisations, found exhaustively. */
    private static int bruteForceBalance(int n, int k, int limit) {
        int best = Integer.MAX_VALUE;
        for (int largest = 1; largest <= Math.min(n, limit); largest++) {
            if (n % largest == 0) {
                int smallest = k == 1 ? largest : largestSmallestFactor(n / largest, k - 1, largest);
                if (smallest > 0) {
                    best = Math.min(best, largest - smallest);
                }
            }
        }
        return best;
    }

    /** The largest possible smallest factor of n written as k non-increasing factors of at most limit; 0 if none. */
    private static int largestSmallestFactor(int n, int k, int limit) {
        if (k == 1) {
            return n <= limit ? n : 0;
        }
        int best = 0;
        for (int d = 1; d <= Math.min(n, limit); d++) {
            if (n % d == 0) {
                best = Math.max(best, Math.min(d, largestSmallestFactor(n / d, k - 1, d)));
            }
        }
        return best;
    }

    @Test
    void largeCountsAreFactoredQuickly() {
        int highlyComposite = 735_134_400;
        int[] six = BalancedFactors.of(highlyComposite, 6);
        assertEquals(highlyComposite, Arrays.stream(six).asLongStream().reduce(1, (a, b) -> a * b));
        assertArrayEquals(new int[] {Integer.MAX_VALUE, 1, 1}, BalancedFactors.of(Integer.MAX_VALUE, 3), "a prime");
        assertArrayEquals(new int[] {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1}, BalancedFactors.of(1024, 12));
    }

    @Test
    void badArgumentsAreReported() {
        assertMpiError(MPI.ERR_ARG, () -> Cartcomm.Dims_create(4, null));
        assertMpiError(MPI.ERR_ARG, () -> Cartcomm.Dims_create(0, new int[2]));
        assertMpiError(MPI.ERR_DIMS, () -> Cartcomm.Dims_create(4, new int[] {0, -1}));
        assertMpiError(MPI.ERR_DIMS, () -> Cartcomm.Dims_create(10, new int[] {3, 0}));
    }
}
