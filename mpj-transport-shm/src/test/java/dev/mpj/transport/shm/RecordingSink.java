package dev.mpj.transport.shm;

import dev.mpj.runtime.spi.FrameHeader;
import dev.mpj.runtime.spi.FrameSink;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A sink that copies and releases every frame, and records lost peers. */
class RecordingSink implements FrameSink {
    /** One frame as the sink saw it. */
    record Received(int peer, byte kind, int tag, long arg, byte[] payload) {
    }

    private final List<Received> frames = new ArrayList<>();
    private final Map<Integer, Throwable> lost = new LinkedHashMap<>();

    @Override
    public synchronized void onFrame(int peer, ByteBuffer frame, Runnable release) {
        try {
            byte[] payload = new byte[frame.remaining() - FrameHeader.LENGTH];
            frame.get(frame.position() + FrameHeader.LENGTH, payload);
            frames.add(new Received(peer, FrameHeader.kind(frame), FrameHeader.tag(frame), FrameHeader.arg(frame),
                    payload));
        } finally {
            release.run();
        }
    }

    @Override
    public synchronized void onPeerLost(int peer, Throwable cause) {
        lost.putIfAbsent(peer, cause);
    }

    synchronized List<Received> frames() {
        return List.copyOf(frames);
    }

    synchronized int count() {
        return frames.size();
    }

    synchronized Map<Integer, Throwable> lost() {
        return Map.copyOf(lost);
    }
}
