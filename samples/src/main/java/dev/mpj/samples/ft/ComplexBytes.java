package dev.mpj.samples.ft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;

/**
 * Interleaved complex values held as little-endian bytes in a direct buffer, the transposes' send and receive
 * buffers: an {@code Alltoall} of a {@code ByteBuffer} with {@code MPI.BYTE} reads and lands in the buffer itself,
 * where one of a {@code double[]} packs it into a buffer of its own and unpacks the result from another; and one from
 * {@code MPI.Alloc_mem} memory is copied once, by the receiver, where a {@code byte[]}'s goes through a channel.
 */
final class ComplexBytes {
    private static final VarHandle DOUBLE = MethodHandles.byteBufferViewVarHandle(double[].class,
            ByteOrder.LITTLE_ENDIAN);

    private ComplexBytes() {
    }

    /** The bytes of {@code complexCount} complex values. */
    static int bytes(int complexCount) {
        return 2 * Double.BYTES * complexCount;
    }

    /** Complex value {@code to} of {@code out} (counted in doubles: 2 per value) becomes {@code x[from], x[from + 1]}. */
    static void put(ByteBuffer out, int to, double[] x, int from) {
        DOUBLE.set(out, Double.BYTES * to, x[from]);
        DOUBLE.set(out, Double.BYTES * (to + 1), x[from + 1]);
    }

    /** Copies {@code n} doubles from {@code in} at double index {@code from} into {@code x} at {@code to}, in one run. */
    static void copy(DoubleBuffer in, int from, double[] x, int to, int n) {
        in.get(from, x, to, n);
    }

    /** {@code in} read as doubles, for {@link #copy}. */
    static DoubleBuffer doubles(ByteBuffer in) {
        return in.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer();
    }
}
