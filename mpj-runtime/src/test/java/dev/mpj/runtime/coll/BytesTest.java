package dev.mpj.runtime.coll;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class BytesTest {
    private static byte[] counting(int n, int from) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (from + i);
        }
        return b;
    }

    @Test
    void copyBetweenHeapSlicesHonoursPositionsAndArrayOffsets() {
        ByteBuffer src = ByteBuffer.wrap(counting(32, 0)).slice(8, 16).position(4); // bytes 12..23
        ByteBuffer dst = ByteBuffer.allocate(64).slice(16, 32).position(2);
        Bytes.copy(src, dst, 3);
        byte[] whole = dst.array();
        byte[] expected = new byte[64];
        System.arraycopy(counting(32, 0), 12, expected, 16 + 2 + 3, 12);
        assertArrayEquals(expected, whole);
        assertEquals(4, src.position(), "source position");
        assertEquals(2, dst.position(), "destination position");
    }

    @Test
    void copyFromADirectBufferIntoAHeapBuffer() {
        ByteBuffer src = ByteBuffer.allocateDirect(8).put(counting(8, 40)).flip();
        ByteBuffer dst = ByteBuffer.allocate(12);
        Bytes.copy(src, dst, 4);
        byte[] expected = new byte[12];
        System.arraycopy(counting(8, 40), 0, expected, 4, 8);
        assertArrayEquals(expected, dst.array());
        assertEquals(0, src.position());
    }

    @Test
    void copyOfARangeTakesItsBytesFromTheSourcePosition() {
        ByteBuffer src = ByteBuffer.wrap(counting(16, 0)).position(2);
        ByteBuffer heap = ByteBuffer.allocate(8);
        ByteBuffer direct = ByteBuffer.allocateDirect(8);
        Bytes.copy(src, 3, 4, heap, 1);
        Bytes.copy(src, 3, 4, direct, 1);
        byte[] expected = new byte[8];
        System.arraycopy(counting(16, 0), 5, expected, 1, 4);
        assertArrayEquals(expected, heap.array());
        byte[] fromDirect = new byte[8];
        direct.get(0, fromDirect);
        assertArrayEquals(expected, fromDirect);
        assertEquals(2, src.position(), "source position");
    }

    @Test
    void copyWithinOneArrayMovesOverlappingRangesWhole() {
        byte[] data = counting(16, 0);
        ByteBuffer all = ByteBuffer.wrap(data);
        Bytes.copy(Bytes.range(all, 0, 8), Bytes.range(all, 4, 16));
        byte[] expected = counting(16, 0);
        System.arraycopy(counting(8, 0), 0, expected, 4, 8);
        assertArrayEquals(expected, data);
    }
}
