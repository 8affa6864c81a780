package dev.mpj.transport.shm;

import dev.mpj.runtime.spi.FrameHeader;

import java.nio.ByteBuffer;

/** Frames with recognisable contents, and the check that one arrived intact. */
final class Frames {
    private Frames() {
    }

    static ByteBuffer header(byte kind, int tag, long arg) {
        ByteBuffer h = FrameHeader.allocate();
        FrameHeader.write(h, kind, 7, 0, tag, 42, arg);
        return h;
    }

    /** {@code length} bytes that depend on {@code seed} and on each byte's offset. */
    static ByteBuffer payload(int seed, int length) {
        return payload(seed, length, 0);
    }

    /** {@link #payload}{@code (seed, …)}'s bytes from {@code offset} on: the next part of one long payload. */
    static ByteBuffer payload(int seed, int length, long offset) {
        ByteBuffer p = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            p.put(i, value(seed, offset + i));
        }
        return p;
    }

    static byte value(int seed, long offset) {
        return (byte) (seed * 31 + offset * 7 + (offset >>> 8));
    }

    /** Whether {@code bytes} are {@link #payload}{@code (seed, …)}'s bytes from {@code offset} on. */
    static boolean matches(byte[] bytes, int seed, long offset) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != value(seed, offset + i)) {
                return false;
            }
        }
        return true;
    }
}
