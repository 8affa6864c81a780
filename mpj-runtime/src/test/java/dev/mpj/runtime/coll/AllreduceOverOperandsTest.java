package dev.mpj.runtime.coll;

import dev.mpj.api.ReductionOperands;
import dev.mpj.runtime.config.CollectiveAlgorithms.Allreduce;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;

import static dev.mpj.runtime.coll.DataMovementTest.forcing;
import static dev.mpj.runtime.coll.TestVectors.SUM;
import static dev.mpj.runtime.coll.TestVectors.assertSame;
import static dev.mpj.runtime.coll.TestVectors.of;
import static dev.mpj.runtime.coll.TestVectors.reduced;
import static dev.mpj.runtime.coll.TestVectors.zeros;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An allreduce over a member's operand and result where the caller holds them ({@link ReductionOperands}) gives
 * the packed path's result, in place and apart, leaving a separate operand alone; Rabenseifner's algorithm over a
 * power-of-two communicator takes them range by range, never the whole operand packed, and every other path packs
 * it once.
 */
@Timeout(120)
class AllreduceOverOperandsTest {
    /** Items of 4 bytes: none, a few, past the short-vector limit and the eager threshold, and not a multiple of P. */
    private static final int[] SIZES = {0, 8, 1024, 9_000, 40_012};

    @ParameterizedTest(name = "{0} np={1}")
    @MethodSource("dev.mpj.runtime.coll.ReductionCollectivesTest#allreduces")
    void givesThePackedPathsResultInPlaceOrApart(Allreduce algorithm, int np) {
        CollectiveTuning tuning = forcing(algorithm);
        new ThreadedJob(np, tuning).run((coll, comm) -> {
            int seed = 40;
            for (int bytes : SIZES) {
                seed++;
                ByteBuffer expected = reduced(SUM, 0, comm.size() - 1, bytes, seed);
                ByteBuffer send = of(comm.rank(), bytes, seed);
                ByteBuffer recv = zeros(bytes);
                PackedOperands apart = new PackedOperands(SUM, send, recv);
                coll.allreduce(comm, apart, SUM);
                assertSame(expected, recv, "apart, " + bytes + " bytes");
                assertSame(of(comm.rank(), bytes, seed), send, "the operand after " + bytes + " bytes");
                ByteBuffer vector = of(comm.rank(), bytes, seed);
                coll.allreduce(comm, new PackedOperands(SUM, vector, vector), SUM);
                assertSame(expected, vector, "in place, " + bytes + " bytes");
                boolean inRanges = np > 1 && Bytes.isPowerOfTwo(np) && bytes > 0
                        && tuning.allreduce(bytes, np, SUM) == Allreduce.RABENSEIFNER;
                assertEquals(inRanges ? 0 : 1, apart.wholePackings, "whole-operand packings, " + bytes + " bytes");
            }
        });
    }
}
