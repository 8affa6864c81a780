package dev.mpj.samples.ft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The Stockham FFTs against a naive DFT: sign +1 is X(k) = Σ x(j) exp(+2πi jk/n), unnormalised. */
class StockhamTest {
    private static final int BLOCK = 4;
    private static final int PAD = 7;

    /** Naive DFT of the line of {@code count} complex values at {@code start} with element stride {@code stride}. */
    private static double[] dft(double[] x, int start, int stride, int count, int sign) {
        double[] out = new double[2 * count];
        for (int k = 0; k < count; k++) {
            double re = 0, im = 0;
            for (int j = 0; j < count; j++) {
                double angle = sign * 2 * Math.PI * ((long) j * k % count) / count;
                double xr = x[2 * (start + j * stride)], xi = x[2 * (start + j * stride) + 1];
                re += xr * Math.cos(angle) - xi * Math.sin(angle);
                im += xr * Math.sin(angle) + xi * Math.cos(angle);
            }
            out[2 * k] = re;
            out[2 * k + 1] = im;
        }
        return out;
    }

    private static double[] random(int complexCount, long seed) {
        Random r = new Random(seed);
        double[] x = new double[2 * complexCount];
        for (int i = 0; i < x.length; i++) {
            x[i] = r.nextDouble() - 0.5;
        }
        return x;
    }

    private static void assertLineEquals(double[] expected, double[] actual, int start, int stride, int count) {
        for (int k = 0; k < count; k++) {
            assertEquals(expected[2 * k], actual[2 * (start + k * stride)], 1e-11 * count, "re " + k);
            assertEquals(expected[2 * k + 1], actual[2 * (start + k * stride) + 1], 1e-11 * count, "im " + k);
        }
    }

    @ParameterizedTest(name = "d1={0}")
    @ValueSource(ints = {2, 4, 8, 16, 32, 64})
    void cffts1TransformsEveryLineAlongTheFirstDimension(int d1) {
        int d2 = 8, d3 = 3;
        double[] x = random(d1 * d2 * d3, d1);
        double[] out = new double[x.length];
        for (int sign : new int[] {1, -1}) {
            new Stockham(64, BLOCK, PAD).cffts1(sign, d1, d2, d3, x, out);
            for (int k = 0; k < d3; k++) {
                for (int j = 0; j < d2; j++) {
                    int start = d1 * (j + d2 * k);
                    assertLineEquals(dft(x, start, 1, d1, sign), out, start, 1, d1);
                }
            }
        }
    }

    @Test
    void cffts2AndCffts3TransformAlongTheSecondAndThirdDimensions() {
        int d1 = 8, d2 = 16, d3 = 32;
        double[] x = random(d1 * d2 * d3, 7);
        double[] out2 = new double[x.length];
        double[] out3 = new double[x.length];
        Stockham fft = new Stockham(32, BLOCK, PAD);
        fft.cffts2(1, d1, d2, d3, x, out2);
        fft.cffts3(-1, d1, d2, d3, x, out3);
        for (int i = 0; i < d1; i++) {
            for (int k = 0; k < d3; k++) {
                int start = i + d1 * d2 * k;
                assertLineEquals(dft(x, start, d1, d2, 1), out2, start, d1, d2);
            }
            for (int j = 0; j < d2; j++) {
                int start = i + d1 * j;
                assertLineEquals(dft(x, start, d1 * d2, d3, -1), out3, start, d1 * d2, d3);
            }
        }
    }

    @Test
    void inverseAfterForwardScalesByTheLength() {
        int n = 32;
        double[] x = random(n * BLOCK, 3);
        double[] y = new double[x.length];
        Stockham fft = new Stockham(n, BLOCK, PAD);
        fft.cffts1(1, n, BLOCK, 1, x, y);
        fft.cffts1(-1, n, BLOCK, 1, y, y);
        for (int i = 0; i < x.length; i++) {
            assertEquals(n * x[i], y[i], 1e-12 * n);
        }
    }

    @Test
    void transformLongerThanTheRootsTableIsRefused() {
        Stockham fft = new Stockham(16, BLOCK, PAD);
        assertThrows(IllegalArgumentException.class,
                () -> fft.cffts1(1, 32, BLOCK, 1, new double[64 * BLOCK], new double[64 * BLOCK]));
    }
}
