package dev.mpj.samples.stencil;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/** One sweep of the stencil's update over an N³ block, the compute of one iteration of {@code stencil3d N}. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx64m")
public class StencilUpdateBenchmark {
    @Param({"64", "128"})
    int n;

    private StencilBlock block;

    @Setup(Level.Trial)
    public void setUp() {
        block = new StencilBlock(n, n, n);
        block.initialise(0, 0, 0);
    }

    @Benchmark
    public double update() {
        return block.update();
    }
}
