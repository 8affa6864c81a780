package dev.mpj.transport.shm;

import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.spi.FrameHeader;
import dev.mpj.runtime.spi.FrameSink;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * The thread CPU per MiB of large {@code DATA} frames through the shared-memory transport, with and without bulk
 * channels, alternated round by round: one thread sends a frame from a heap array (as {@code Send} of a
 * {@code byte[]} does) and reads it into another (as a posted receive does), so no wait and no cross-core traffic
 * is counted. Thread CPU rather than JMH's wall time, which a loaded machine swamps. Both sides have rings of
 * 4 MiB, as two ranks have with the default room; "bulk" adds the channels the default room gives them.
 * {@code java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp <the module's test classpath>
 * dev.mpj.transport.shm.RingPathCpu [BYTES [FRAMES [ROUNDS]]]}
 */
public final class RingPathCpu {
    private static final int RING = 4 << 20;

    private RingPathCpu() {
    }

    public static void main(String[] args) throws IOException {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        int frames = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 6;
        int ringsOnly = (int) ShmLayout.roomFor(2, RING);
        int withBulk = 16 << 20;
        byte[] source = new byte[size];
        for (int i = 0; i < size; i++) {
            source[i] = (byte) (i * 7 + (i >>> 8));
        }
        System.out.println("round  path  cpu us/MiB");
        for (int round = 0; round < rounds; round++) {
            for (int room : new int[] {ringsOnly, withBulk}) {
                double micros = run(room, source, frames);
                System.out.printf("%5d  %-4s  %10.1f%n", round, room == ringsOnly ? "ring" : "bulk", micros);
            }
        }
    }

    /** Thread CPU µs per MiB of {@code frames} frames of {@code source} through a room of {@code room} bytes. */
    private static double run(int room, byte[] source, int frames) throws IOException {
        Path dir = Files.createTempDirectory("mpj-cpu");
        Path file = dir.resolve("mpj-cpu-n0");
        Duration timeout = Duration.ofSeconds(10);
        NodeSegment root = NodeSegment.create(file, 0, 2, 2, 16, room, timeout);
        NodeSegment peer = NodeSegment.open(file, 0, 2, 2, timeout);
        try {
            NodeMap map = NodeMap.blocks(2, 1);
            CopyingSink sink = new CopyingSink(source.length);
            ShmTransport sender = new ShmTransport();
            sender.start(new RingPathBenchmark.Context(0, new CopyingSink(0), map, root));
            ShmTransport receiver = new ShmTransport();
            receiver.start(new RingPathBenchmark.Context(1, sink, map, peer));
            ByteBuffer header = FrameHeader.allocate();
            FrameHeader.write(header, FrameHeader.DATA, 1, 0, 1, 1, 0);
            ByteBuffer payload = ByteBuffer.wrap(source);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            transfer(sender, receiver, sink, header, payload, frames / 4); // warm-up
            long start = threads.getCurrentThreadCpuTime();
            transfer(sender, receiver, sink, header, payload, frames);
            long cpu = threads.getCurrentThreadCpuTime() - start;
            if (!Arrays.equals(source, sink.destination)) {
                throw new AssertionError("the frames arrived changed");
            }
            sender.close();
            receiver.close();
            return cpu / 1e3 / ((double) frames * source.length / (1 << 20));
        } finally {
            peer.close();
            root.close();
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    private static void transfer(ShmTransport sender, ShmTransport receiver, CopyingSink sink, ByteBuffer header,
                                 ByteBuffer payload, int frames) {
        for (int i = 0; i < frames; i++) {
            long target = sink.bytes + payload.remaining();
            sender.send(1, header, payload); // the frame fits the ring or the channel: no wait on one thread
            while (sink.bytes < target) {
                receiver.poll();
            }
        }
    }

    /** Copies each frame's payload in place into one array, at its offset, as a posted receive does. */
    private static final class CopyingSink implements FrameSink {
        final byte[] destination;
        long bytes;

        CopyingSink(int length) {
            destination = new byte[length];
        }

        @Override
        public boolean onFrameInPlace(int peer, ByteBuffer frame) {
            int n = frame.remaining() - FrameHeader.LENGTH;
            frame.get(frame.position() + FrameHeader.LENGTH, destination, (int) FrameHeader.arg(frame), n);
            bytes += n;
            return true;
        }

        @Override
        public void onFrame(int peer, ByteBuffer frame, Runnable release) {
            throw new AssertionError("every frame is taken in place");
        }

        @Override
        public void onPeerLost(int peer, Throwable cause) {
            throw new IllegalStateException("rank " + peer + " lost", cause);
        }
    }
}
