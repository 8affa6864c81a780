package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The arriving operand of a combination step over packed vectors, combined into {@code out} as it comes. */
final class FoldOnArrival extends OnArrival {
    private final Reduction op;
    private final ByteBuffer right;
    private final ByteBuffer out;

    /**
     * {@code out = arriving op right}, or {@code out = arriving op out} when {@code right} is null; the three
     * ranges (and {@code room}, which receives what is not combined on arrival) have the message's length.
     */
    FoldOnArrival(Reduction op, ByteBuffer room, ByteBuffer right, ByteBuffer out) {
        super(op.itemBytes(), room);
        this.op = op;
        this.right = right;
        this.out = out;
    }

    @Override
    void use(ByteBuffer src, int from, int at, int n) {
        ByteBuffer in = src.slice(from, n).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer into = Bytes.range(out, at, at + n);
        if (right == null) {
            op.apply(in, into);
        } else {
            op.applyInto(in, Bytes.range(right, at, at + n), into);
        }
    }
}
