package dev.mpj.runtime.coll;

import dev.mpj.api.ReductionOperands;

import java.nio.ByteBuffer;

/**
 * The arriving bytes of one range of a reduction's vector, taken straight into the caller's result
 * ({@link ReductionOperands}): combined with its operand or its result as they stand, or landed there.
 */
final class OperandsOnArrival extends OnArrival {
    /** What the arriving bytes do to the result. */
    enum Use { COMBINE_WITH_OPERAND, COMBINE_WITH_RESULT, LAND }

    private final ReductionOperands operands;
    private final int base;
    private final Use what;

    /** The arriving bytes are the vector's from byte {@code base}; {@code room} has the message's length. */
    OperandsOnArrival(ReductionOperands operands, int itemBytes, int base, Use what, ByteBuffer room) {
        super(itemBytes, room);
        this.operands = operands;
        this.base = base;
        this.what = what;
    }

    @Override
    void use(ByteBuffer src, int from, int at, int n) {
        switch (what) {
            case COMBINE_WITH_OPERAND -> operands.combine(src, from, base + at, n, true);
            case COMBINE_WITH_RESULT -> operands.combine(src, from, base + at, n, false);
            default -> operands.land(src, from, base + at, n);
        }
    }
}
