package dev.mpj.transport.tcp;

import io.netty.buffer.ByteBuf;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/** Releases an inbound frame handed to the sink; a second call does nothing, so the frame is released once. */
final class FrameRelease implements Runnable {
    private static final AtomicIntegerFieldUpdater<FrameRelease> RELEASED =
            AtomicIntegerFieldUpdater.newUpdater(FrameRelease.class, "released");

    private final ByteBuf frame;
    private volatile int released;

    FrameRelease(ByteBuf frame) {
        this.frame = frame;
    }

    @Override
    public void run() {
        if (RELEASED.compareAndSet(this, 0, 1)) {
            frame.release();
        }
    }
}
