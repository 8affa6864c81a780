package dev.mpj.api;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScratchBufferTest {
    @Test
    void aShorterRequestReusesTheKeptBytes() {
        ScratchBuffer s = new ScratchBuffer();
        ByteBuffer first = s.take(1000);
        first.put(0, (byte) 42);
        ByteBuffer second = s.take(10);
        assertEquals(10, second.remaining());
        assertEquals(ByteOrder.LITTLE_ENDIAN, second.order());
        assertEquals(42, second.get(0), "the same bytes");
        assertEquals(1000, s.keptBytes());
    }

    @Test
    void aLongerRequestGrowsTheKeptBufferUpToTheBound() {
        ScratchBuffer s = new ScratchBuffer();
        s.take(1000);
        assertEquals(1024, s.take(1024).remaining());
        assertTrue(s.keptBytes() >= 1500, "grown by half at least");
        s.take(ScratchBuffer.MAX_KEPT_BYTES);
        assertEquals(ScratchBuffer.MAX_KEPT_BYTES, s.keptBytes());
    }

    @Test
    void aRequestBeyondTheBoundIsNotKept() {
        ScratchBuffer s = new ScratchBuffer();
        s.take(64);
        ByteBuffer big = s.take(ScratchBuffer.MAX_KEPT_BYTES + 1);
        assertEquals(ScratchBuffer.MAX_KEPT_BYTES + 1, big.remaining());
        assertEquals(ByteOrder.LITTLE_ENDIAN, big.order());
        assertEquals(64, s.keptBytes());
    }
}
