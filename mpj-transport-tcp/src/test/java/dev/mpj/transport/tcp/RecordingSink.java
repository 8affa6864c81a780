package dev.mpj.transport.tcp;

import dev.mpj.runtime.spi.FrameHeader;
import dev.mpj.runtime.spi.FrameSink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A sink that copies and releases every frame, and lets a test wait for frames or lost peers. */
final class RecordingSink implements FrameSink {
    /** One frame as the sink saw it, and the thread that handed it over. */
    record Received(int peer, byte kind, int tag, long cookie, byte[] payload, boolean littleEndian, Thread thread) {
    }

    private final List<Received> frames = new ArrayList<>();
    private final Map<Integer, Throwable> lost = new LinkedHashMap<>();
    private int lostReports;

    @Override
    public void onFrame(int peer, ByteBuffer frame, Runnable release) {
        try {
            byte[] payload = new byte[frame.remaining() - FrameHeader.LENGTH];
            frame.get(frame.position() + FrameHeader.LENGTH, payload);
            Received r = new Received(peer, FrameHeader.kind(frame), FrameHeader.tag(frame),
                    FrameHeader.cookie(frame), payload, frame.order() == ByteOrder.LITTLE_ENDIAN, Thread.currentThread());
            synchronized (this) {
                frames.add(r);
                notifyAll();
            }
        } finally {
            release.run();
        }
    }

    @Override
    public synchronized void onPeerLost(int peer, Throwable cause) {
        lostReports++;
        lost.putIfAbsent(peer, cause);
        notifyAll();
    }

    synchronized List<Received> frames() {
        return List.copyOf(frames);
    }

    synchronized List<Received> framesFrom(int peer) {
        return frames.stream().filter(f -> f.peer() == peer).toList();
    }

    synchronized Map<Integer, Throwable> lost() {
        return Map.copyOf(lost);
    }

    synchronized int lostReports() {
        return lostReports;
    }

    /** Waits until at least {@code count} frames arrived; returns them. */
    synchronized List<Received> awaitFrames(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (frames.size() < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("expected " + count + " frames, got " + frames.size());
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return List.copyOf(frames);
    }

    /** Waits until {@code peer} is reported lost; returns the cause. */
    synchronized Throwable awaitLost(int peer, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!lost.containsKey(peer)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("rank " + peer + " was not reported lost");
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return lost.get(peer);
    }
}
