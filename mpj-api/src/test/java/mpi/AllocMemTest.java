package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code MPI.Alloc_mem}'s own checks, and what a backend without shared memory gives. */
class AllocMemTest extends MpiTestSupport {
    @BeforeEach
    void startAJobOfTwo() {
        start(2, 0);
    }

    @Test
    void aNegativeSizeIsAnArgumentError() {
        assertMpiError(MPI.ERR_ARG, () -> MPI.Alloc_mem(-1));
    }

    @Test
    void theMemoryIsADirectLittleEndianBufferOfTheSizeAsked() {
        ByteBuffer b = MPI.Alloc_mem(24);
        assertTrue(b.isDirect());
        assertEquals(ByteOrder.LITTLE_ENDIAN, b.order());
        assertEquals(24, b.capacity());
    }
}
