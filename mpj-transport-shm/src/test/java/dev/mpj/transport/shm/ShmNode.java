package dev.mpj.transport.shm;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.spi.FrameSink;
import dev.mpj.runtime.node.ProcessId;
import dev.mpj.runtime.engine.WaitIdling;
import dev.mpj.runtime.spi.Idling;
import dev.mpj.runtime.spi.TcpOptions;
import dev.mpj.runtime.spi.NodeRoom;
import dev.mpj.runtime.spi.TransportContext;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One node of {@code ranks} ranks over a real memory-mapped node segment file: rank 0 creates it, every other
 * rank (a thread in a test, or another process) maps its own view, as ranks do in a job.
 */
final class ShmNode implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int CARD_CAPACITY = 16;

    final Path file;
    final int ranks;
    final NodeMap map;
    private final List<NodeSegment> segments = new ArrayList<>();

    private ShmNode(Path file, int ranks, NodeSegment root) {
        this.file = file;
        this.ranks = ranks;
        this.map = NodeMap.blocks(ranks, 1);
        segments.add(root);
    }

    /** Creates the segment with {@code roomBytes} of transport room. */
    static ShmNode create(Path dir, int ranks, int roomBytes) {
        Path file = dir.resolve("mpj-shm-test-n0");
        return new ShmNode(file, ranks, NodeSegment.create(file, 0, ranks, ranks, CARD_CAPACITY, roomBytes, TIMEOUT));
    }

    /** Maps the segment of an existing node (another process's). */
    static NodeSegment open(Path file, int ranks) {
        return NodeSegment.open(file, 0, ranks, ranks, TIMEOUT);
    }

    /** A started transport for {@code rank}, over its own mapping of the segment. */
    synchronized ShmTransport start(int rank, FrameSink sink) throws IOException {
        NodeSegment segment = rank == 0 ? segments.get(0) : open(file, ranks);
        if (rank != 0) {
            segments.add(segment);
        }
        ShmTransport t = new ShmTransport();
        t.start(context(rank, sink, map, segment));
        return t;
    }

    static TransportContext context(int rank, FrameSink sink, NodeMap map, NodeSegment segment) {
        return new Context(rank, map.size(), sink, Settings.defaults(), map, segment);
    }

    /** The transport room as rank 0 maps it (for tests that play with liveness slots). */
    ShmLayout layout() {
        return ShmLayout.of(segments.get(0).transportRegion(), ranks);
    }

    @Override
    public synchronized void close() {
        for (int i = segments.size() - 1; i >= 0; i--) {
            segments.get(i).close();
        }
    }

    private record Context(int rank, int size, FrameSink sink, Settings settings, NodeMap nodeMap,
                           NodeSegment nodeSegment) implements TransportContext {
        @Override
        public TcpOptions tcp() {
            return TcpOptions.from(settings());
        }

        @Override
        public Idling idling() {
            return new WaitIdling(settings.waitPolicy());
        }

        @Override
        public NodeRoom nodeRoom() {
            int node = nodeMap.nodeOf(rank);
            return new NodeRoom(node, nodeMap.ranksOn(node), size, nodeSegment.transportRegion(),
                    ProcessId.current());
        }
    }
}
