package dev.mpj.transport.shm;

import dev.mpj.api.Operation;
import dev.mpj.api.PendingCall;
import dev.mpj.api.SendMode;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.init.TransportRouter;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import mpi.MPI;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The engines' share of an unexpected storm over shared memory, on one thread: rank 0's engine sends a batch of
 * 8-byte standard sends into rank 1's ring before rank 1 posts anything, then rank 1 takes them with one blocking
 * receive after another, as {@code Recv} makes them. Per message: both engines, the ring, matching; not the {@code mpi} classes,
 * and no cross-core traffic. The batch fits the ring, so the sender never waits for room.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx64m"})
public class StormBenchmark {
    private static final int BATCH = 4096;
    private static final int CONTEXT = 2;
    private static final int TAG = 4;
    /** Every message is in the ring before its receive, so no receive waits to be described. */
    private static final PendingCall NOT_WAITING = (source, tag) -> "a storm receive";

    private Path dir;
    private NodeSegment root;
    private NodeSegment peer;
    private ProgressEngine sender;
    private ProgressEngine receiver;
    private final ByteBuffer message = ByteBuffer.allocate(8);
    private final ByteBuffer room = ByteBuffer.allocate(8);

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("mpj-jmh");
        Path file = dir.resolve("mpj-jmh-n0");
        Duration timeout = Duration.ofSeconds(10);
        root = NodeSegment.create(file, 0, 2, 2, 16, (int) ShmLayout.roomFor(2, 4 << 20), timeout);
        peer = NodeSegment.open(file, 0, 2, 2, timeout);
        NodeMap map = NodeMap.blocks(2, 1);
        sender = engine(0, map, root);
        receiver = engine(1, map, peer);
    }

    private static ProgressEngine engine(int rank, NodeMap map, NodeSegment segment) throws IOException {
        ProgressEngine engine = new ProgressEngine(rank, Settings.defaults());
        ShmTransport shm = new ShmTransport();
        shm.start(new RingPathBenchmark.Context(rank, engine, map, segment));
        TransportRouter router = new TransportRouter(rank, 2);
        router.route(1 - rank, shm);
        engine.setRouter(router);
        engine.setThreadLevel(MPI.THREAD_SINGLE); // as MPI.Init leaves it
        return engine;
    }

    ProgressEngine sender() {
        return sender;
    }

    ProgressEngine receiver() {
        return receiver;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long sendThenReceive() {
        for (int i = 0; i < BATCH; i++) {
            message.putLong(0, i);
            sender.send(message, 1, TAG, CONTEXT, SendMode.STANDARD);
        }
        long sum = 0;
        for (int i = 0; i < BATCH; i++) {
            Operation op = receiver.receiveAndWait(room, 0, TAG, CONTEXT, NOT_WAITING);
            sum += room.getLong(0);
            receiver.release(op);
        }
        return sum;
    }

    /**
     * The same operation timed in thread CPU time rather than wall time, which a machine shared with other work
     * inflates by whatever the scheduler takes away: prints the median, min and max over 9 samples of 300
     * batches, after 2000 batches of warm-up.
     */
    public static void main(String[] args) throws IOException {
        StormBenchmark b = new StormBenchmark();
        b.setUp();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 2000; i++) {
            b.sendThenReceive();
        }
        double[] perMessage = new double[9];
        for (int k = 0; k < perMessage.length; k++) {
            long start = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < 300; i++) {
                b.sendThenReceive();
            }
            perMessage[k] = (threads.getCurrentThreadCpuTime() - start) / (300.0 * BATCH);
        }
        Arrays.sort(perMessage);
        System.out.printf("StormBenchmark.sendThenReceive: %.1f ns of thread CPU per message (%.1f-%.1f)%n",
                perMessage[4], perMessage[0], perMessage[8]);
        b.tearDown();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        peer.close();
        root.close();
        Files.deleteIfExists(dir.resolve("mpj-jmh-n0"));
        Files.deleteIfExists(dir);
    }
}
