package dev.mpj.transport.shm;

import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.spi.FrameSink;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;

/**
 * Rank 1 of a two-rank node in a process of its own: echoes {@code count} frames back to rank 0, then leaves in
 * order ({@code close}) or dies without a word ({@code die}). Args: segment file, count, close|die.
 */
public final class ShmEchoMain {
    private ShmEchoMain() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        boolean die = args[2].equals("die");
        ArrayDeque<ByteBuffer> received = new ArrayDeque<>();
        FrameSink sink = new FrameSink() {
            @Override
            public void onFrame(int peer, ByteBuffer frame, Runnable release) {
                ByteBuffer copy = ByteBuffer.allocate(frame.remaining());
                copy.put(frame.duplicate()).flip();
                release.run();
                received.add(copy);
            }

            @Override
            public void onPeerLost(int peer, Throwable cause) {
                System.err.println("lost rank " + peer + ": " + cause);
                Runtime.getRuntime().halt(2);
            }
        };
        NodeSegment segment = ShmNode.open(file, 2);
        ShmTransport t = new ShmTransport();
        t.start(ShmNode.context(1, sink, NodeMap.blocks(2, 1), segment));
        for (int echoed = 0; echoed < count; ) {
            t.poll();
            ByteBuffer f = received.poll();
            if (f == null) {
                Thread.onSpinWait();
                continue;
            }
            t.send(0, f.slice(0, 32), f.slice(32, f.remaining() - 32));
            echoed++;
        }
        if (die) {
            Runtime.getRuntime().halt(3);
        }
        t.close();
        segment.close();
    }
}
