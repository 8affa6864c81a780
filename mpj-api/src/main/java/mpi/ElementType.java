package mpi;

import java.nio.ByteBuffer;

/**
 * A Java primitive that datatypes are built from: its size on the wire and its bulk copies between a
 * Java array and a little-endian {@link ByteBuffer}. Multi-byte types go through the buffer's typed
 * views, so a copy is one bulk (byte-swapping where needed) transfer, never a loop over boxed values; runs of at
 * most {@link #SCALAR_RUN} values go value by value, without a view.
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
            int[] values = (int[]) array;
            if (n <= SCALAR_RUN) {
                for (int i = index, end = index + n; i < end; i++) {
                    out.putInt(values[i]);
                }
                return;
            }
            out.asIntBuffer().put(values, index, n);
            advance(out, n);
        }

        @Override
        void read(ByteBuffer in, Object array, int index, int n) {
            int[] values = (int[]) array;
            if (n <= SCALAR_RUN) {
                for (int i = index, end = index + n; i < end; i++) {
                    values[i] = in.getInt();
                }
                return;
            }
            in.asIntBuffer().get(values, index, n);
            advance(in, n);
        }
    },
    LONG(8, long[].class) {
        @Override
        void write(ByteBuffer out, Object array, int index, int n) {
            long[] values = (long[]) array;
            if (n <= SCALAR_RUN) {
                for (int i = index, end = index + n; i < end; i++) {
                    out.putLong(values[i]);
                }
                return;
            }
            out.asLongBuffer().put(values, index, n);
            advance(out, n);
        }

        @Override
        void read(ByteBuffer in, Object array, int index, int n) {
            long[] values = (long[]) array;
            if (n <= SCALAR_RUN) {
                for (int i = index, end = index + n; i < end; i++) {
                    values[i] = in.getLong();
                }
                return;
            }
            in.asLongBuffer().get(values, index, n);
            advance(in, n);
        }
    },
    FLOAT(4, float[].class) {
        @Override
        void write(ByteBuffer out, Object array, int index, int n) {
            float[] values = (float[]) array;
            if (n <= SCALAR_RUN) {
                for (int i = index, end = index + n; i < end; i++) {
                    out.putFloat(values[i]);
                }
                return;
            }
            out.asFloatBuffer().put(values, index, n);
            advance(out, n);
        }

        @Override
        void read(ByteBuffer in, Object array, int index, int n) {
            float[] values = (float[]) array;
            if (n <= SCALAR_RUN) {
                for (int i = index, end = index + n; i < end; i++) {
                    values[i] = in.getFloat();
                }
                return;
            }
            in.asFloatBuffer().get(values, index, n);
            advance(in, n);
        }
    },
    DOUBLE(8, double[].class) {
        @Override
        void write(ByteBuffer out, Object array, int index, int n) {
            double[] values = (double[]) array;
            if (n <= SCALAR_RUN) {
                for (int i = index, end = index + n; i < end; i++) {
                    out.putDouble(values[i]);
                }
                return;
            }
            out.asDoubleBuffer().put(values, index, n);
            advance(out, n);
        }

        @Override
        void read(ByteBuffer in, Object array, int index, int n) {
            double[] values = (double[]) array;
            if (n <= SCALAR_RUN) {
                for (int i = index, end = index + n; i < end; i++) {
                    values[i] = in.getDouble();
                }
                return;
            }
            in.asDoubleBuffer().get(values, index, n);
            advance(in, n);
        }
    };

    /**
     * Runs of multi-byte values up to this long are copied one value at a time: a typed view is an object made per
     * copy, which costs more than the copy itself for the few values of a typical small message.
     */
    static final int SCALAR_RUN = 8;

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

    /**
     * The length of {@code array}, an array of this type: {@code Array.getLength} is a native call in all code but
     * C2's, so an argument check that used it cost a cold caller (a woken receiver, a first send) a native
     * transition per call.
     */
    final int length(Object array) {
        switch (this) {
            case BYTE:
                return ((byte[]) array).length;
            case CHAR:
                return ((char[]) array).length;
            case SHORT:
                return ((short[]) array).length;
            case BOOLEAN:
                return ((boolean[]) array).length;
            case INT:
                return ((int[]) array).length;
            case LONG:
                return ((long[]) array).length;
            case FLOAT:
                return ((float[]) array).length;
            default:
                return ((double[]) array).length;
        }
    }

    /** Moves the position past {@code n} values written or read through a view, which has its own position. */
    final void advance(ByteBuffer buffer, int n) {
        buffer.position(buffer.position() + n * bytes);
    }

    /** The array type's name as a Java programmer writes it, for error messages. */
    String arrayName() {
        return arrayClass.getComponentType().getName() + "[]";
    }
}
