package dev.mpj.samples.ft;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * FT's 1D FFTs along each dimension of a 256 × 256 × 8 slab (class A's lines of 256 points) with the sample's
 * block sizes, forward: the work of {@code cffts1}, {@code cffts2} and {@code cffts3} in one rank's transform.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx64m")
public class StockhamBenchmark {
    private static final int D1 = 256;
    private static final int D2 = 256;
    private static final int D3 = 8;

    private Stockham fft;
    private double[] x;
    private double[] out;

    @Setup(Level.Trial)
    public void setUp() {
        fft = new Stockham(D1, FtLayout.FFTBLOCK_DEFAULT, FtLayout.FFTBLOCKPAD_DEFAULT);
        x = new double[2 * D1 * D2 * D3];
        Random r = new Random(1);
        for (int i = 0; i < x.length; i++) {
            x[i] = r.nextDouble() - 0.5;
        }
        out = new double[x.length];
    }

    @Benchmark
    public double[] cffts1() {
        fft.cffts1(1, D1, D2, D3, x, out);
        return out;
    }

    @Benchmark
    public double[] cffts2() {
        fft.cffts2(1, D1, D2, D3, x, out);
        return out;
    }

    @Benchmark
    public double[] cffts3() {
        fft.cffts3(1, D1, D3, D2, x, out);
        return out;
    }
}
