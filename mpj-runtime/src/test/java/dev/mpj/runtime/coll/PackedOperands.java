package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;
import dev.mpj.api.ReductionOperands;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Operands over packed buffers, combined by the reduction itself; counts the packings of the whole operand. */
final class PackedOperands implements ReductionOperands {
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
