package dev.mpj.transport.shm;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FramePoolTest {
    private final FramePool pool = new FramePool(1 << 20, 4);

    @Test
    void aPooledFrameHoldsAtMostTwiceItsLengthNotARingRecord() {
        // 64 frames of 4 KiB + header in the inbox at once must not cost 64 ring-sized buffers
        FramePool.PooledFrame f = pool.take(4096 + 32);
        assertEquals(4096 + 32, f.buffer.limit());
        assertTrue(f.buffer.capacity() <= 2 * (4096 + 32), "capacity " + f.buffer.capacity());
    }

    @Test
    void aReleasedBufferServesTheNextFrameOfItsSizeClass() {
        FramePool.PooledFrame first = pool.take(100_000);
        first.release().run();
        FramePool.PooledFrame second = pool.take(70_000);
        assertSame(first.buffer, second.buffer);
        assertEquals(70_000, second.buffer.limit());
    }

    @Test
    void smallAndOversizedFramesAreExactAllocationsWithNothingToGiveBack() {
        assertSame(FramePool.NO_RELEASE, pool.take(64).release());
        assertEquals(64, pool.take(64).buffer.capacity());
        assertEquals((1 << 20) + 1, pool.take((1 << 20) + 1).buffer.capacity());
    }
}
