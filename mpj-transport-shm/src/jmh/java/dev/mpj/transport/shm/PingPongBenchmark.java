package dev.mpj.transport.shm;

import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import dev.mpj.runtime.engine.ProgressEngine;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The engines' share of an 8-byte ping-pong over shared memory, on one thread: each side posts its receive before
 * the other sends, as in the latency benchmark, so every message is matched straight off the ring by a waiting
 * receive. Per round trip: two sends, two receives posted, two waits that find their message on the first pass;
 * not the {@code mpi} classes, and no cross-core traffic.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx64m"})
public class PingPongBenchmark {
    private static final int CONTEXT = 2;
    private static final int TAG = 4;

    private final StormBenchmark node = new StormBenchmark();
    private final ByteBuffer ping = ByteBuffer.allocate(8);
    private final ByteBuffer pong = ByteBuffer.allocate(8);
    private final ByteBuffer room0 = ByteBuffer.allocate(8);
    private final ByteBuffer room1 = ByteBuffer.allocate(8);

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        node.setUp();
    }

    @Benchmark
    public long roundTrip() {
        ProgressEngine r0 = node.sender();
        ProgressEngine r1 = node.receiver();
        Operation in1 = r1.receive(room1, 0, TAG, CONTEXT);
        r0.send(ping, 1, TAG, CONTEXT, SendMode.STANDARD);
        r1.await(in1::isComplete);
        Operation in0 = r0.receive(room0, 1, TAG, CONTEXT);
        r1.send(pong, 0, TAG, CONTEXT, SendMode.STANDARD);
        r0.await(in0::isComplete);
        return room0.getLong(0) + room1.getLong(0);
    }

    /** The round trip in thread CPU time, as {@link StormBenchmark#main} times its batches. */
    public static void main(String[] args) throws IOException {
        PingPongBenchmark b = new PingPongBenchmark();
        b.setUp();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int batch = 200_000;
        for (int i = 0; i < 20 * batch; i++) {
            b.roundTrip();
        }
        double[] perRoundTrip = new double[9];
        for (int k = 0; k < perRoundTrip.length; k++) {
            long start = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < batch; i++) {
                b.roundTrip();
            }
            perRoundTrip[k] = (threads.getCurrentThreadCpuTime() - start) / (double) batch;
        }
        Arrays.sort(perRoundTrip);
        System.out.printf("PingPongBenchmark.roundTrip: %.1f ns of thread CPU per round trip (%.1f-%.1f)%n",
                perRoundTrip[4], perRoundTrip[0], perRoundTrip[8]);
        b.tearDown();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        node.tearDown();
    }
}
