package dev.mpj.runtime.engine;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link ReceiveOperation#copy}: every byte of the run lands in place, word by word or in bulk, whatever the orders. */
class ReceiveOperationCopyTest {
    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 7, 8, 9, 31, ReceiveOperation.SHORT_COPY, ReceiveOperation.SHORT_COPY + 1, 200})
    void copiesTheRunBetweenAbsoluteIndicesAndNothingElse(int n) {
        for (ByteOrder srcOrder : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            for (ByteOrder dstOrder : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
                ByteBuffer src = ByteBuffer.allocateDirect(n + 10).order(srcOrder);
                for (int i = 0; i < src.capacity(); i++) {
                    src.put(i, (byte) (i * 7 + 1));
                }
                ByteBuffer dst = ByteBuffer.allocate(n + 6).order(dstOrder);
                ReceiveOperation.copy(src, 3, dst, 5, n);
                String orders = srcOrder + " to " + dstOrder;
                for (int i = 0; i < dst.capacity(); i++) {
                    byte expected = i >= 5 && i < 5 + n ? (byte) ((i - 5 + 3) * 7 + 1) : 0;
                    assertEquals(expected, dst.get(i), orders + ", byte " + i);
                }
                assertEquals(0, src.position(), orders);
                assertEquals(0, dst.position(), orders);
            }
        }
    }
}
