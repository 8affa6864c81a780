package dev.mpj.samples.ft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NpbRandomTest {
    private static final BigInteger MOD = BigInteger.ONE.shiftLeft(46);
    private static final BigInteger A = BigInteger.valueOf(1220703125L);

    @Test
    void randlcIsTheCongruentialSequenceModTwoToThe46() {
        double[] x = {NpbRandom.SEED};
        BigInteger exact = BigInteger.valueOf(314159265L);
        for (int k = 0; k < 10_000; k++) {
            double value = NpbRandom.randlc(x, NpbRandom.A);
            exact = exact.multiply(A).mod(MOD);
            assertEquals(exact.longValueExact(), (long) x[0], "step " + k);
            assertEquals(Math.scalb((double) exact.longValueExact(), -46), value, 0.0, "step " + k);
        }
    }

    @Test
    void vranlcGivesTheSameStreamAsRepeatedRandlcAndAdvancesTheSeed() {
        double[] a = {NpbRandom.SEED};
        double[] b = {NpbRandom.SEED};
        double[] y = new double[1001];
        NpbRandom.vranlc(1000, a, NpbRandom.A, y, 1);
        for (int i = 1; i <= 1000; i++) {
            assertEquals(NpbRandom.randlc(b, NpbRandom.A), y[i], 0.0, "value " + i);
        }
        assertEquals(b[0], a[0], 0.0);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 2, 3, 64, 8191, 2L * 512 * 512, 2L * 512 * (511L * 512 + 256), (1L << 40) + 12345})
    void ipow46IsModularExponentiation(long exponent) {
        long expected = A.modPow(BigInteger.valueOf(exponent), MOD).longValueExact();
        assertEquals(expected, (long) NpbRandom.ipow46(NpbRandom.A, exponent));
    }

    @Test
    void jumpingAheadWithIpow46LandsOnTheSameElementAsStepping() {
        double[] stepped = {NpbRandom.SEED};
        for (int i = 0; i < 777; i++) {
            NpbRandom.randlc(stepped, NpbRandom.A);
        }
        double[] jumped = {NpbRandom.SEED};
        NpbRandom.randlc(jumped, NpbRandom.ipow46(NpbRandom.A, 777));
        assertEquals(stepped[0], jumped[0], 0.0);
    }
}
