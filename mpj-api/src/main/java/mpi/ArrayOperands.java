package mpi;

import dev.mpj.api.ReductionOperands;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A reduction's operand and result in the user's arrays of {@code int long float double} under an operation the
 * array kernels run ({@code MAX MIN SUM PROD}): the runtime packs only the ranges it sends and combines or lands the
 * others straight in the result array, where packing the whole operand and unpacking the whole result cost a pass
 * over the vector each. One per thread, set for each blocking call, so a call allocates nothing for it.
 */
final class ArrayOperands implements ReductionOperands {
    private final CollectiveScratch scratch;
    private Datatype type;
    private ElementType element;
    private Op.Kind kind;
    private Object operand;
    private int operandIndex;
    private Object result;
    private int resultIndex;
    private int count;
    private ByteBuffer room;

    ArrayOperands(CollectiveScratch scratch) {
        this.scratch = scratch;
    }

    /**
     * Whether these operands serve a reduction of {@code type} under {@code op} from {@code sendbuf} (or
     * {@link MPI#IN_PLACE}) into {@code recvbuf}: one value of a kernel type per item, in arrays of that type.
     */
    static boolean serve(Op op, Datatype type, Object sendbuf, Object recvbuf) {
        ElementType e = type == null ? null : type.singleValueElement();
        Op.Kind k = op == null ? null : op.predefinedKind();
        return e != null && k != null && ArrayKernels.runs(k)
                && (e == ElementType.INT || e == ElementType.LONG || e == ElementType.FLOAT || e == ElementType.DOUBLE)
                && recvbuf != null && recvbuf.getClass() == e.arrayClass
                && (sendbuf == MPI.IN_PLACE || sendbuf != null && sendbuf.getClass() == e.arrayClass);
    }

    /**
     * These operands for one call: {@code count} values of {@code type} at {@code operandIndex} of {@code operand}
     * and at {@code resultIndex} of {@code result} (the same array and index for an in-place call), as {@link #serve}
     * accepted them, the buffers checked.
     */
    ArrayOperands of(Op op, Datatype type, Object operand, int operandIndex, Object result, int resultIndex,
                     int count) {
        this.type = type;
        this.element = type.singleValueElement();
        this.kind = op.predefinedKind();
        this.operand = operand;
        this.operandIndex = operandIndex;
        this.result = result;
        this.resultIndex = resultIndex;
        this.count = count;
        this.room = null;
        return this;
    }

    /** Forgets the user's arrays, so the thread's operands do not keep them alive. */
    void clear() {
        operand = null;
        result = null;
        room = null;
    }

    @Override
    public int bytes() {
        return count * element.bytes;
    }

    @Override
    public void packOperand(int from, int to, ByteBuffer dst, int at) {
        pack(operand, operandIndex, from, to, dst, at);
    }

    @Override
    public void packResult(int from, int to, ByteBuffer dst, int at) {
        pack(result, resultIndex, from, to, dst, at);
    }

    private void pack(Object array, int index, int from, int to, ByteBuffer dst, int at) {
        element.write(dst.slice(at, to - from).order(ByteOrder.LITTLE_ENDIAN), array, index + from / element.bytes,
                (to - from) / element.bytes);
    }

    @Override
    public void combine(ByteBuffer src, int from, int at, int n, boolean ofOperand) {
        int v = at / element.bytes;
        Object mine = ofOperand ? operand : result;
        int mineIndex = (ofOperand ? operandIndex : resultIndex) + v;
        int values = n / element.bytes;
        switch (element) {
            case INT -> ArrayKernels.ints(kind, src, from, (int[]) mine, mineIndex, (int[]) result, resultIndex + v,
                    values);
            case LONG -> ArrayKernels.longs(kind, src, from, (long[]) mine, mineIndex, (long[]) result, resultIndex + v,
                    values);
            case FLOAT -> ArrayKernels.floats(kind, src, from, (float[]) mine, mineIndex, (float[]) result,
                    resultIndex + v, values);
            default -> ArrayKernels.doubles(kind, src, from, (double[]) mine, mineIndex, (double[]) result,
                    resultIndex + v, values);
        }
    }

    @Override
    public void land(ByteBuffer src, int from, int at, int n) {
        element.read(src.slice(from, n).order(ByteOrder.LITTLE_ENDIAN), result, resultIndex + at / element.bytes,
                n / element.bytes);
    }

    @Override
    public ByteBuffer packedOperand() {
        return type.pack(operand, operandIndex, count, false, scratch.packed);
    }

    @Override
    public ByteBuffer resultRoom() {
        room = scratch.results.take(bytes());
        return room;
    }

    @Override
    public void landRoom() {
        land(room, 0, 0, room.remaining());
    }
}
