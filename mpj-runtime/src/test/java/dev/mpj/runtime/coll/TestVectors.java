package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Test data that tells every rank, position and call apart, and two reductions to check order with. */
final class TestVectors {
    private TestVectors() {
    }

    /** {@code bytes} bytes that only rank {@code rank} contributes, for the call with this {@code seed}. */
    static ByteBuffer of(int rank, int bytes, int seed) {
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < bytes; i++) {
            b.put(i, value(rank, i, seed));
        }
        return b;
    }

    static byte value(int rank, int index, int seed) {
        return (byte) (rank * 131 + index * 7 + (index >>> 8) * 3 + seed * 17 + 1);
    }

    static ByteBuffer zeros(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Asserts byte-for-byte equality, naming the first difference. */
    static void assertSame(ByteBuffer expected, ByteBuffer actual, String what) {
        assertEquals(expected.remaining(), actual.remaining(), what + ": length");
        int mismatch = expected.mismatch(actual);
        if (mismatch >= 0) {
            throw new AssertionError(what + ": first difference at byte " + mismatch + " of " + expected.remaining()
                    + ": expected " + expected.get(expected.position() + mismatch) + " but was "
                    + actual.get(actual.position() + mismatch));
        }
    }

    /** Integer addition: commutative. */
    static final Reduction SUM = commutativeInts((in, inout) -> {
        ByteBuffer a = in.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer b = inout.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < a.remaining(); i += 4) {
            b.putInt(b.position() + i, a.getInt(a.position() + i) + b.getInt(b.position() + i));
        }
    });

    /** A commutative reduction of 4-byte items that combines by {@code apply}. */
    static Reduction commutativeInts(BiConsumer<ByteBuffer, ByteBuffer> apply) {
        return new Reduction() {
            @Override
            public int itemBytes() {
                return 4;
            }

            @Override
            public boolean isCommutative() {
                return true;
            }

            @Override
            public void apply(ByteBuffer in, ByteBuffer inout) {
                apply.accept(in, inout);
            }
        };
    }

    /**
     * Composition of affine maps x → m·x + c (an item is m then c): associative but not commutative, so
     * any combination out of rank order gives a different result.
     */
    static final Reduction COMPOSE = new Reduction() {
        @Override
        public int itemBytes() {
            return 8;
        }

        @Override
        public boolean isCommutative() {
            return false;
        }

        @Override
        public void apply(ByteBuffer in, ByteBuffer inout) {
            ByteBuffer a = in.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer b = inout.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < a.remaining(); i += 8) {
                int lm = a.getInt(a.position() + i);
                int lc = a.getInt(a.position() + i + 4);
                int hm = b.getInt(b.position() + i);
                int hc = b.getInt(b.position() + i + 4);
                // first the lower ranks' map, then the higher ones'
                b.putInt(b.position() + i, hm * lm);
                b.putInt(b.position() + i + 4, hm * lc + hc);
            }
        }
    };

    /** The reduction of the vectors of ranks {@code from}..{@code to} (inclusive), combined in rank order. */
    static ByteBuffer reduced(Reduction op, int from, int to, int bytes, int seed) {
        ByteBuffer acc = of(from, bytes, seed);
        for (int r = from + 1; r <= to; r++) {
            ByteBuffer next = of(r, bytes, seed);
            op.apply(acc, next);
            acc = next;
        }
        return acc;
    }
}
