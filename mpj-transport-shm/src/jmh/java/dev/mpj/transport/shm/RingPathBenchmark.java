package dev.mpj.transport.shm;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.node.ProcessId;
import dev.mpj.runtime.engine.WaitIdling;
import dev.mpj.runtime.spi.Idling;
import dev.mpj.runtime.spi.TcpOptions;
import dev.mpj.runtime.spi.NodeRoom;
import dev.mpj.runtime.spi.FrameHeader;
import dev.mpj.runtime.spi.FrameSink;
import dev.mpj.runtime.spi.TransportContext;
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
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The shared-memory ring path on one thread: rank 0 writes a frame into rank 1's ring, rank 1 reads it out and
 * hands it to its sink (claim, copy in, commit, read, copy out, release). No cross-core traffic: this is the cost
 * the transport adds on top of the cache-line transfer a real ping-pong pays. With {@code bulkChannel} above 0
 * the room has a bulk channel of that many bytes per rank past the rings, which {@code DATA} frames of
 * {@value ShmTransport#BULK_MIN} bytes and more take instead of the ring (keep {@code size} within it: one
 * thread cannot wait for room).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED")
public class RingPathBenchmark {
    @Param({"8", "1024", "65536", "1048576"})
    int size;

    @Param({"4194304"})
    int ringCapacity;

    @Param({"0"})
    int bulkChannel;

    private Path dir;
    private NodeSegment root;
    private NodeSegment peer;
    private ShmTransport sender;
    private ShmTransport receiver;
    private ByteBuffer header;
    private ByteBuffer payload;
    private final CountingSink sink = new CountingSink();

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("mpj-jmh");
        Path file = dir.resolve("mpj-jmh-n0");
        Duration timeout = Duration.ofSeconds(10);
        root = NodeSegment.create(file, 0, 2, 2, 16, room(), timeout);
        peer = NodeSegment.open(file, 0, 2, 2, timeout);
        NodeMap map = NodeMap.blocks(2, 1);
        sender = new ShmTransport();
        sender.start(new Context(0, new CountingSink(), map, root));
        receiver = new ShmTransport();
        receiver.start(new Context(1, sink, map, peer));
        header = FrameHeader.allocate();
        FrameHeader.write(header, size > 65536 ? FrameHeader.DATA : FrameHeader.EAGER, 1, 0, 1, 1, 0);
        payload = ByteBuffer.allocateDirect(size);
    }

    private int room() {
        long rings = ShmLayout.roomFor(2, ringCapacity);
        return (int) (bulkChannel == 0 ? rings : rings + 2L * (BulkChannel.HEADER_LENGTH + bulkChannel));
    }

    @Benchmark
    public long sendAndReceive() {
        long target = sink.payloadBytes + size;
        sender.send(1, header, payload); // the ring holds the whole frame: no wait for room on this one thread
        while (sink.payloadBytes < target) {
            receiver.poll();
        }
        return sink.payloadBytes;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        sender.close();
        receiver.close();
        peer.close();
        root.close();
        Files.deleteIfExists(dir);
    }

    private static final class CountingSink implements FrameSink {
        long payloadBytes;

        @Override
        public void onFrame(int peer, ByteBuffer frame, Runnable release) {
            payloadBytes += frame.remaining() - FrameHeader.LENGTH;
            release.run();
        }

        @Override
        public void onPeerLost(int peer, Throwable cause) {
            throw new IllegalStateException("rank " + peer + " lost", cause);
        }
    }

    /** What a rank of this two-rank node gives its transport; the storm benchmark starts its ranks with it too. */
    record Context(int rank, FrameSink sink, NodeMap nodeMap, NodeSegment nodeSegment)
            implements TransportContext {
        @Override
        public int size() {
            return 2;
        }

        public Settings settings() {
            return Settings.defaults();
        }

        @Override
        public TcpOptions tcp() {
            return TcpOptions.from(settings());
        }

        @Override
        public Idling idling() {
            return new WaitIdling(settings().waitPolicy());
        }

        @Override
        public NodeRoom nodeRoom() {
            int node = nodeMap.nodeOf(rank);
            return new NodeRoom(node, nodeMap.ranksOn(node), size(), nodeSegment.transportRegion(),
                    ProcessId.current());
        }
    }
}
