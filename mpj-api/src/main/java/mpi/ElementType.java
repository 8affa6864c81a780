package mpi;

import java.nio.ByteBuffer;

/**
 * A Java primitive that datatypes are built from: its size on the wire and its bulk copies between a
 * Java array and a little-endian {@link ByteBuffer}. Multi-byte types go through the buffer's typed
 * views, so a copy is one bulk (byte-swapping where needed) transfer, never a loop over boxed values.
 * The buffers given must already be little-endian: a view takes its order from the buffer.
 */
enum ElementType {
    BYTE(1, byte[].class) {
        @Override
        void write(ByteBuffer out, Object array, int index, int n) {
            out.put((byte[]) array, index, n);
        }

        @Override
        void read(ByteBuffer in, Object array, int index, int n) {
            in.get((byte[]) array, index, n);
        }
    },
    CHAR(2, char[].class) {
        @Override
        void write(ByteBuffer out, Object array, int index, int n) {
            out.asCharBuffer().put((char[]) array, index, n);
            advance(out, n);
        }

        @Override
        void read(ByteBuffer in, Object array, int index, int n) {
            in.asCharBuffer().get((char[]) array, index, n);
            advance(in, n);
        }
    },
    SHORT(2, short[].class) {
        @Override
        void write(ByteBuffer out, Object array, int index, int n) {
            out.asShortBuffer().put((short[]) array, index, n);
            advance(out, n);
        }

        @Override
        void read(ByteBuffer in, Object array, int index, int n) {
            in.asShortBuffer().get((short[]) array, index, n);
            advance(in, n);
        }
    },
    /** One byte per value, 0 or 1 (any non-zero byte reads as true). */
    BOOLEAN(1, boolean[].class) {
        @Override
        void write(ByteBuffer out, Object array, int index, int n) {
            boolean[] values = (boolean[]) array;
            for (int i = index, end = index + n; i < end; i++) {
                out.put(values[i] ? (byte) 1 : (byte) 0);
            }
        }

        @Override
        void read(ByteBuffer in, Object array, int index, int n) {
            boolean[] values = (boolean[]) array;
            for (int i = index, end = index + n; i < end; i++) {
                values[i] = in.get() != 0;
            }
        }
    },
    INT(4, int[].class) {
        @Override
        void write(ByteBuffer out, Object array, int index, int n) {
            out.asIntBuffer().put((int[]) array, index, n);
            advance(out, n);
        }

        @Override
        void read(ByteBuffer in, Object array, int index, int n) {
            in.asIntBuffer().get((int[]) array, index, n);
            advance(in, n);
        }
    },
    LONG(8, long[].class) {
        @Override
        void write(ByteBuffer out, Object array, int index, int n) {
            out.asLongBuffer().put((long[]) array, index, n);
            advance(out, n);
        }

        @Override
        void read(ByteBuffer in, Object array, int index, int n) {
            in.asLongBuffer().get((long[]) array, index, n);
            advance(in, n);
        }
    },
    FLOAT(4, float[].class) {
        @Override
        void write(ByteBuffer out, Object array, int index, int n) {
            out.asFloatBuffer().put((float[]) array, index, n);
            advance(out, n);
        }

        @Override
        void read(ByteBuffer in, Object array, int index, int n) {
            in.asFloatBuffer().get((float[]) array, index, n);
            advance(in, n);
        }
    },
    DOUBLE(8, double[].class) {
        @Override
        void write(ByteBuffer out, Object array, int index, int n) {
            out.asDoubleBuffer().put((double[]) array, index, n);
            advance(out, n);
        }

        @Override
        void read(ByteBuffer in, Object array, int index, int n) {
            in.asDoubleBuffer().get((double[]) array, index, n);
            advance(in, n);
        }
    };

    /** Bytes per value on the wire. */
    final int bytes;
    /** The Java array type that holds values of this type. */
    final Class<?> arrayClass;

    ElementType(int bytes, Class<?> arrayClass) {
        this.bytes = bytes;
        this.arrayClass = arrayClass;
    }

    /** Copies {@code n} values from {@code array[index..]} to {@code out} at its position, advancing it. */
    abstract void write(ByteBuffer out, Object array, int index, int n);

    /** Copies {@code n} values from {@code in} at its position to {@code array[index..]}, advancing it. */
    abstract void read(ByteBuffer in, Object array, int index, int n);

    /** Moves the position past {@code n} values written or read through a view, which has its own position. */
    final void advance(ByteBuffer buffer, int n) {
        buffer.position(buffer.position() + n * bytes);
    }

    /** The array type's name as a Java programmer writes it, for error messages. */
    String arrayName() {
        return arrayClass.getComponentType().getName() + "[]";
    }
}
