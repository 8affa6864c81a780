package dev.mpj.runtime.engine;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.*;

/** Unexpected eager payloads in pooled buffers: copied exactly, reused once given back, kept within the bound. */
class UnexpectedPayloadsTest {
    private static ByteBuffer source(int length, int seed) {
        ByteBuffer b = ByteBuffer.allocate(length + 3);
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) (seed + 7 * i));
        }
        return b;
    }

    @Test
    void aCopyHoldsThePayloadFromItsIndexWithTheLengthAsLimit() {
        UnexpectedPayloads pool = new UnexpectedPayloads(1 << 20);
        for (int length : new int[] {0, 1, 32, 33, 64, 65, 1000, 65536}) {
            ByteBuffer src = source(length, length);
            ByteBuffer copy = pool.copyOf(src, 3, length);
            assertEquals(0, copy.position());
            assertEquals(length, copy.limit(), "limit of a copy of " + length + " bytes");
            for (int i = 0; i < length; i++) {
                assertEquals(src.get(3 + i), copy.get(i), "byte " + i + " of " + length);
            }
        }
    }

    @Test
    void aBufferGivenBackServesTheNextPayloadOfItsClass() {
        UnexpectedPayloads pool = new UnexpectedPayloads(1 << 20);
        ByteBuffer first = pool.copyOf(source(40_000, 1), 0, 40_000);
        ByteBuffer held = pool.copyOf(source(65_536, 2), 0, 65_536);
        pool.giveBack(first);
        assertEquals(65_536, pool.retainedBytes());
        ByteBuffer next = pool.copyOf(source(65_000, 3), 0, 65_000);
        assertSame(first, next, "the buffer given back");
        assertEquals(65_000, next.limit());
        assertEquals(0, pool.retainedBytes());
        assertNotSame(held, pool.copyOf(source(65_536, 4), 0, 65_536), "a buffer still held is never handed out");
    }

    @Test
    void buffersOfAnotherClassAreNotHandedOut() {
        UnexpectedPayloads pool = new UnexpectedPayloads(1 << 20);
        ByteBuffer small = pool.copyOf(source(100, 1), 0, 100);
        pool.giveBack(small);
        assertNotSame(small, pool.copyOf(source(1000, 2), 0, 1000));
        assertSame(small, pool.copyOf(source(128, 3), 0, 128));
    }

    @Test
    void freeBuffersStayWithinTheBound() {
        UnexpectedPayloads pool = new UnexpectedPayloads(3 * 65_536);
        ByteBuffer[] held = new ByteBuffer[5];
        for (int i = 0; i < held.length; i++) {
            held[i] = pool.copyOf(source(65_536, i), 0, 65_536);
        }
        for (ByteBuffer b : held) {
            pool.giveBack(b);
        }
        assertEquals(3 * 65_536, pool.retainedBytes());
    }

    @Test
    void unchargedPayloadsAreNotKept() {
        UnexpectedPayloads pool = new UnexpectedPayloads(1 << 20);
        pool.giveBack(pool.copyOf(source(EagerCredit.FREE_BYTES, 1), 0, EagerCredit.FREE_BYTES));
        assertEquals(0, pool.retainedBytes());
    }
}
