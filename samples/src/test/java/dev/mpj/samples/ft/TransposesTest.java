package dev.mpj.samples.ft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.function.BiConsumer;

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
        ByteBuffer bytes = exchangeBuffer(n1 * n2);
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
    void slabFinishPutsEachPeersBlockBesideTheOthers() {
        int n1 = 80, n2 = 3, np2 = 2; // 40 columns a peer: a whole run of 32 and a partial one
        int cols = n1 / np2;
        double[] x = random(n1 * n2);
        ByteBuffer bytes = exchangeBuffer(n1 * n2);
        for (int v = 0; v < n1 * n2; v++) {
            ComplexBytes.put(bytes, 2 * v, x, 2 * v);
        }
        double[] out = new double[x.length];
        Transposes.transpose2Finish(n1, n2, np2, bytes, out);
        for (int p = 0; p < np2; p++) {
            for (int j = 0; j < cols; j++) {
                for (int i = 0; i < n2; i++) {
                    assertComplexAt(x, i + n2 * (j + cols * p), out, i + p * n2 + n2 * np2 * j);
                }
            }
        }
    }

    @Test
    void xyTransposeSwapsTheFirstTwoDimensions() {
        assertTransposed((x, bytes) -> Transposes.xyLocal(D1, D2, D3, x, bytes),
                (bytes, out) -> Transposes.xyFinish(D2, D1, D3, 1, bytes, out), (i, j, k) -> j + D2 * (i + D1 * k));
    }

    @Test
    void xzTransposeSwapsTheFirstAndThirdDimensions() {
        assertTransposed((x, bytes) -> Transposes.xzLocal(D1, D2, D3, x, bytes),
                (bytes, out) -> Transposes.xzFinish(D3, D2, D1, 1, bytes, out), (i, j, k) -> k + D3 * (j + D2 * i));
    }

    private static final int D1 = 4, D2 = 6, D3 = 3;

    /** Runs a 3-D transpose of a random D1 × D2 × D3 array through the exchange bytes and checks every element. */
    private static void assertTransposed(BiConsumer<double[], ByteBuffer> local, BiConsumer<ByteBuffer, double[]> finish,
                                         Target target) {
        double[] x = random(D1 * D2 * D3);
        ByteBuffer bytes = exchangeBuffer(D1 * D2 * D3);
        double[] out = new double[x.length];
        local.accept(x, bytes);
        finish.accept(bytes, out);
        for (int k = 0; k < D3; k++) {
            for (int j = 0; j < D2; j++) {
                for (int i = 0; i < D1; i++) {
                    assertComplexAt(x, i + D1 * (j + D2 * k), out, target.of(i, j, k));
                }
            }
        }
    }

    /** An exchange buffer of {@code complexCount} values, direct as {@code MPI.Alloc_mem}'s. */
    private static ByteBuffer exchangeBuffer(int complexCount) {
        return ByteBuffer.allocateDirect(ComplexBytes.bytes(complexCount)).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Where element (i, j, k) of a D1 × D2 × D3 array lands after a transpose. */
    private interface Target {
        int of(int i, int j, int k);
    }
}
