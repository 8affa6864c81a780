package mpi;

import dev.mpj.api.Reduction;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A reduction operation: one of the predefined ones ({@link MPI#MAX}, {@link MPI#SUM}, ...) or a
 * {@link User_function}. Where the predefined operations apply:
 * <ul>
 * <li>{@code MAX MIN SUM PROD}: {@code BYTE SHORT CHAR INT LONG FLOAT DOUBLE} (CHAR as unsigned
 * 16-bit; integer arithmetic wraps);</li>
 * <li>{@code LAND LOR LXOR}: {@code BOOLEAN} and the integer types (result 1 or 0);</li>
 * <li>{@code BAND BOR BXOR}: {@code BYTE SHORT CHAR INT LONG};</li>
 * <li>{@code MAXLOC MINLOC}: the pair types {@code SHORT2 INT2 LONG2 FLOAT2 DOUBLE2} (value, index),
 * ties taking the lower index.</li>
 * </ul>
 * Elsewhere a collective raises {@code ERR_OP} naming the operation and the type. Over {@code MPI.OBJECT} only
 * user operations apply; they combine the members' objects in rank order. A derived datatype
 * built from one primitive type takes the operations of that type, element by element.
 */
public class Op {
    /** The predefined operations. */
    enum Kind { MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, MAXLOC, MINLOC }

    private final String name;
    private final Kind kind;
    private final User_function function;
    private final boolean commute;

    Op(Kind kind) {
        this.name = "MPI." + kind.name();
        this.kind = kind;
        this.function = null;
        this.commute = true;
    }

    /**
     * A user-defined operation. {@code commute} false makes every reduction combine operands in rank
     * order (the function must still be associative).
     */
    public Op(User_function function, boolean commute) {
        if (function == null) {
            throw new MPIException(MPI.ERR_OP, "Op: the user function is null");
        }
        this.name = "user operation " + function.getClass().getName();
        this.kind = null;
        this.function = function;
        this.commute = commute;
    }

    /** Whether the operation is commutative (all predefined ones are). */
    public boolean Is_commute() {
        return commute;
    }

    /**
     * Frees a user operation (a no-op: the garbage collector reclaims it). {@code ERR_ARG} for a
     * predefined operation, which cannot be freed.
     */
    public void free() {
        if (kind != null) {
            throw new MPIException(MPI.ERR_ARG, "free: " + name + " is predefined and cannot be freed");
        }
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * The user function, for reductions over {@link MPI#OBJECT}; {@code ERR_OP} for a predefined operation,
     * which is not defined on objects.
     */
    User_function objectFunction(String call) {
        if (function == null) {
            throw new MPIException(MPI.ERR_OP, call + ": " + name + " is not defined for MPI.OBJECT; use a user Op");
        }
        return function;
    }

    /** The predefined operation this is, or null for a user operation. */
    Kind predefinedKind() {
        return kind;
    }

    /** The operation applied to packed items of {@code type}, or ERR_OP if it is not defined for it. */
    Reduction on(Datatype type, String call) {
        int itemBytes = type.packedItemBytes();
        if (type.element == null || itemBytes <= 0) {
            throw new MPIException(MPI.ERR_TYPE, call + ": reductions need a datatype of primitive values, not " + type);
        }
        if (function != null) {
            return new UserReduction(function, commute, type, itemBytes);
        }
        if (!defined(kind, type)) {
            throw new MPIException(MPI.ERR_OP, call + ": " + name + " is not defined for datatype " + type);
        }
        return new PredefinedReduction(kind, type.element, itemBytes);
    }

    private static boolean defined(Kind kind, Datatype type) {
        boolean pair = type == MPI.SHORT2 || type == MPI.INT2 || type == MPI.LONG2 || type == MPI.FLOAT2
                || type == MPI.DOUBLE2;
        if (kind == Kind.MAXLOC || kind == Kind.MINLOC) {
            return pair;
        }
        if (pair) {
            return false;
        }
        return switch (type.element) {
            case BYTE, SHORT, CHAR, INT, LONG -> true;
            case FLOAT, DOUBLE -> kind == Kind.MAX || kind == Kind.MIN || kind == Kind.SUM || kind == Kind.PROD;
            case BOOLEAN -> kind == Kind.LAND || kind == Kind.LOR || kind == Kind.LXOR;
        };
    }

    /** A predefined operation over packed values: one tight loop per operation and type. */
    private record PredefinedReduction(Kind kind, ElementType element, int itemBytes) implements Reduction {
        @Override
        public boolean isCommutative() {
            return true;
        }

        @Override
        public void apply(ByteBuffer in, ByteBuffer inout) {
            ByteBuffer a = littleEndian(in);
            ByteBuffer b = littleEndian(inout);
            int ai = in.position();
            int bi = inout.position();
            int bytes = in.remaining();
            int n = bytes / element.bytes;
            switch (kind) {
                case MAXLOC, MINLOC -> applyLoc(kind == Kind.MAXLOC, a, ai, b, bi, n / 2);
                default -> {
                    switch (element) {
                        case BYTE, BOOLEAN -> ReductionKernels.bytes(kind, a, ai, b, bi, n);
                        case SHORT -> ReductionKernels.shorts(kind, a, ai, b, bi, n);
                        case CHAR -> ReductionKernels.chars(kind, a, ai, b, bi, n);
                        case INT -> ReductionKernels.ints(kind, a, ai, b, bi, n);
                        case LONG -> ReductionKernels.longs(kind, a, ai, b, bi, n);
                        case FLOAT -> ReductionKernels.floats(kind, a, ai, b, bi, n);
                        case DOUBLE -> ReductionKernels.doubles(kind, a, ai, b, bi, n);
                    }
                }
            }
        }

        @Override
        public void applyInto(ByteBuffer in, ByteBuffer right, ByteBuffer out) {
            int n = in.remaining() / element.bytes;
            if (!ArrayKernels.runs(kind, n)) {
                Reduction.super.applyInto(in, right, out);
                return;
            }
            ByteBuffer a = littleEndian(in);
            ByteBuffer b = littleEndian(right);
            ByteBuffer c = littleEndian(out);
            int ai = in.position();
            int bi = right.position();
            int ci = out.position();
            switch (element) {
                case INT -> ArrayKernels.ints(kind, a, ai, b, bi, c, ci, n);
                case LONG -> ArrayKernels.longs(kind, a, ai, b, bi, c, ci, n);
                case FLOAT -> ArrayKernels.floats(kind, a, ai, b, bi, c, ci, n);
                case DOUBLE -> ArrayKernels.doubles(kind, a, ai, b, bi, c, ci, n);
                default -> Reduction.super.applyInto(in, right, out);
            }
        }

        private void applyLoc(boolean max, ByteBuffer a, int ai, ByteBuffer b, int bi, int pairs) {
            switch (element) {
                case SHORT -> ReductionKernels.shortPairs(max, a, ai, b, bi, pairs);
                case INT -> ReductionKernels.intPairs(max, a, ai, b, bi, pairs);
                case LONG -> ReductionKernels.longPairs(max, a, ai, b, bi, pairs);
                case FLOAT -> ReductionKernels.floatPairs(max, a, ai, b, bi, pairs);
                case DOUBLE -> ReductionKernels.doublePairs(max, a, ai, b, bi, pairs);
                default -> throw new IllegalStateException("no pairs of " + element);
            }
        }

        /** The same bytes read little-endian; absolute indices are unchanged by the duplicate. */
        private static ByteBuffer littleEndian(ByteBuffer buffer) {
            return buffer.order() == ByteOrder.LITTLE_ENDIAN ? buffer : buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    /**
     * A {@link User_function} over packed items: both vectors are unpacked into fresh arrays of the
     * datatype's element type, the function runs, and the in-out array is packed back.
     */
    private record UserReduction(User_function function, boolean commute, Datatype type, int itemBytes)
            implements Reduction {
        @Override
        public boolean isCommutative() {
            return commute;
        }

        @Override
        public void apply(ByteBuffer in, ByteBuffer inout) {
            int count = in.remaining() / itemBytes;
            Object invec = unpacked(in, count);
            Object inoutvec = unpacked(inout, count);
            function.Call(invec, 0, inoutvec, 0, count, type);
            inout.duplicate().put(type.pack(inoutvec, 0, count, false));
        }

        private Object unpacked(ByteBuffer bytes, int count) {
            Object array = Array.newInstance(type.element.arrayClass.getComponentType(), count * type.Extent());
            Landing landing = Landing.of(type, array, 0, count);
            landing.room().duplicate().put(bytes.duplicate());
            landing.finish();
            return array;
        }
    }
}
