package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;
import dev.mpj.api.ReductionOperands;
import dev.mpj.runtime.config.CollectiveAlgorithms.Allreduce;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

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

    /** Operands over packed buffers, combined by the reduction itself; counts the packings of the whole operand. */
    private static final class PackedOperands implements ReductionOperands {
        private final Reduction op;
        private final ByteBuffer operand;
        private final ByteBuffer result;
        private ByteBuffer room;
        int wholePackings;

        PackedOperands(Reduction op, ByteBuffer operand, ByteBuffer result) {
            this.op = op;
            this.operand = operand;
            this.result = result;
        }

        @Override
        public int bytes() {
            return operand.remaining();
        }

        @Override
        public void packOperand(int from, int to, ByteBuffer dst, int at) {
            dst.put(at, operand, operand.position() + from, to - from);
        }

        @Override
        public void packResult(int from, int to, ByteBuffer dst, int at) {
            dst.put(at, result, result.position() + from, to - from);
        }

        @Override
        public void combine(ByteBuffer src, int from, int at, int n, boolean ofOperand) {
            ByteBuffer in = src.slice(from, n).order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer out = Bytes.range(result, at, at + n);
            if (ofOperand) {
                op.applyInto(in, Bytes.range(operand, at, at + n), out);
            } else {
                op.apply(in, out);
            }
        }

        @Override
        public void land(ByteBuffer src, int from, int at, int n) {
            result.put(result.position() + at, src, from, n);
        }

        @Override
        public ByteBuffer packedOperand() {
            wholePackings++;
            return Bytes.allocate(bytes()).put(0, operand, operand.position(), bytes());
        }

        @Override
        public ByteBuffer resultRoom() {
            room = Bytes.allocate(bytes());
            return room;
        }

        @Override
        public void landRoom() {
            land(room, 0, 0, room.remaining());
        }
    }
}
