package dev.mpj.samples.ft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The local halves of FT's transposes on a one-rank slice, where the Alltoall between them is a copy: the reorder
 * into the send bytes followed by the reorder out of the received bytes is the whole transpose, every complex
 * value moved whole to its place.
 */
class TransposesTest {
    private static double[] random(int complexCount) {
        Random r = new Random(complexCount);
        double[] x = new double[2 * complexCount];
        for (int i = 0; i < x.length; i++) {
            x[i] = r.nextDouble() - 0.5;
        }
        return x;
    }

    private static void assertComplexAt(double[] expected, int from, double[] actual, int to) {
        assertEquals(expected[2 * from], actual[2 * to], "re of " + from + " at " + to);
        assertEquals(expected[2 * from + 1], actual[2 * to + 1], "im of " + from + " at " + to);
    }

    @Test
    void twoDimensionalTransposeOfTheSlabLayout() {
        int n1 = 40, n2 = 70; // not multiples of the tile, so partial tiles are covered
        double[] x = random(n1 * n2);
        byte[] bytes = ComplexBytes.allocate(n1 * n2);
        double[] out = new double[x.length];
        Transposes.transpose2Local(n1, n2, x, bytes);
        Transposes.transpose2Finish(n1, n2, 1, bytes, out);
        for (int j = 0; j < n2; j++) {
            for (int i = 0; i < n1; i++) {
                assertComplexAt(x, i + n1 * j, out, j + n2 * i);
            }
        }
    }

    @Test
    void xyTransposeSwapsTheFirstTwoDimensions() {
        int d1 = 4, d2 = 6, d3 = 3;
        double[] x = random(d1 * d2 * d3);
        byte[] bytes = ComplexBytes.allocate(d1 * d2 * d3);
        double[] out = new double[x.length];
        Transposes.xyLocal(d1, d2, d3, x, bytes);
        Transposes.xyFinish(d2, d1, d3, 1, bytes, out);
        assertEachElementAt(d1, d2, d3, x, out, (i, j, k) -> j + d2 * (i + d1 * k));
    }

    @Test
    void xzTransposeSwapsTheFirstAndThirdDimensions() {
        int d1 = 4, d2 = 6, d3 = 3;
        double[] x = random(d1 * d2 * d3);
        byte[] bytes = ComplexBytes.allocate(d1 * d2 * d3);
        double[] out = new double[x.length];
        Transposes.xzLocal(d1, d2, d3, x, bytes);
        Transposes.xzFinish(d3, d2, d1, 1, bytes, out);
        assertEachElementAt(d1, d2, d3, x, out, (i, j, k) -> k + d3 * (j + d2 * i));
    }

    /** Where element (i, j, k) of a d1 × d2 × d3 array lands after a transpose. */
    private interface Target {
        int of(int i, int j, int k);
    }

    private static void assertEachElementAt(int d1, int d2, int d3, double[] x, double[] out, Target target) {
        for (int k = 0; k < d3; k++) {
            for (int j = 0; j < d2; j++) {
                for (int i = 0; i < d1; i++) {
                    assertComplexAt(x, i + d1 * (j + d2 * k), out, target.of(i, j, k));
                }
            }
        }
    }
}
