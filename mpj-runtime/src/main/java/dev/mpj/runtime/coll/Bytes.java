package dev.mpj.runtime.coll;

import dev.mpj.api.ScratchBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Byte-range helpers: collectives address their buffers by offsets from the buffer's position. */
final class Bytes {
    // a subclass, not withInitial(...::new): linking that method reference is a bootstrap call in the
    // first collective of every rank
    private static final ThreadLocal<ScratchBuffer> SCRATCH = new ThreadLocal<>() {
        @Override
        protected ScratchBuffer initialValue() {
            return new ScratchBuffer();
        }
    };

    /** A second scratch, for data a step sends while the first holds what arrives. */
    private static final ThreadLocal<ScratchBuffer> SEND_SCRATCH = new ThreadLocal<>() {
        @Override
        protected ScratchBuffer initialValue() {
            return new ScratchBuffer();
        }
    };

    private Bytes() {
    }

    /** Bytes {@code from} to {@code to} of {@code buffer}, counted from its position, as an independent buffer. */
    static ByteBuffer range(ByteBuffer buffer, int from, int to) {
        return buffer.slice(buffer.position() + from, to - from);
    }

    /** A heap buffer for intermediate results, little-endian like all packed data. */
    static ByteBuffer allocate(int length) {
        return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * {@code length} bytes of the calling thread's scratch buffer, little-endian, for an algorithm of a blocking
     * collective that calls no other collective while it holds them (so no two holders overlap).
     */
    static ByteBuffer scratch(int length) {
        return SCRATCH.get().take(length);
    }

    /**
     * {@code length} bytes of the calling thread's send scratch, as {@link #scratch} but apart from it: for the data
     * one step of a blocking collective sends, packed while the other scratch holds what arrives.
     */
    static ByteBuffer sendScratch(int length) {
        return SEND_SCRATCH.get().take(length);
    }

    /** Copies all of {@code src} into {@code dst} at its start; neither buffer's position moves. */
    static void copy(ByteBuffer src, ByteBuffer dst) {
        copy(src, dst, 0);
    }

    /**
     * Copies all of {@code src} into {@code dst} at offset {@code at}; neither buffer's position moves. Two
     * writable heap buffers, the collectives' scratch and landing rooms, copy as arrays: a buffer-to-buffer
     * {@code put} brings some 1.7 KB of the JDK's bytecode into every collective C2 compiles whole.
     */
    static void copy(ByteBuffer src, ByteBuffer dst, int at) {
        copy(src, 0, src.remaining(), dst, at);
    }

    /**
     * Copies bytes {@code from} to {@code from + length} of {@code src} (counted from its position) into {@code dst}
     * at offset {@code at}; neither buffer's position moves, and no view of the range is made where both are arrays.
     */
    static void copy(ByteBuffer src, int from, int length, ByteBuffer dst, int at) {
        int to = dst.position() + at;
        if (src.hasArray() && dst.hasArray() && from >= 0 && length <= src.remaining() - from && at >= 0
                && length <= dst.limit() - to) {
            System.arraycopy(src.array(), src.arrayOffset() + src.position() + from, dst.array(),
                    dst.arrayOffset() + to, length);
            return;
        }
        dst.duplicate().position(to).put(range(src, from, from + length));
    }

    static boolean isPowerOfTwo(int n) {
        return (n & (n - 1)) == 0;
    }

    /** The largest power of two not above {@code n} (n ≥ 1). */
    static int floorPowerOfTwo(int n) {
        return Integer.highestOneBit(n);
    }

    /**
     * Offsets of {@code parts} near-equal pieces of {@code totalBytes}, cut only at multiples of
     * {@code unit}: piece i is {@code [start[i], start[i + 1])}.
     */
    static int[] split(int totalBytes, int parts, int unit) {
        int items = totalBytes / unit;
        int[] start = new int[parts + 1];
        for (int i = 0; i <= parts; i++) {
            start[i] = (int) ((long) items * i / parts) * unit;
        }
        start[parts] = totalBytes;
        return start;
    }
}
