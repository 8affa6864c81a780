package dev.mpj.api;

import java.nio.ByteBuffer;

/**
 * A reduction operation bound to a datatype, as the runtime sees it: it combines packed
 * (little-endian) vectors of items. The {@code mpi} layer builds it from an {@code mpi.Op} and an
 * {@code mpi.Datatype}; the runtime only splits vectors at item boundaries and decides the order of
 * combination.
 */
public interface Reduction {
    /** Bytes one item occupies; vectors are split only at multiples of it. */
    int itemBytes();

    /** Whether operands may be combined in any order; if not, the runtime combines in rank order. */
    boolean isCommutative();

    /**
     * {@code inout = in op inout}, item by item, where {@code in} holds the contribution of the lower
     * ranks. Both are ranges from position to limit of the same length, a multiple of
     * {@link #itemBytes()}; positions, limits and byte orders are left unchanged.
     */
    void apply(ByteBuffer in, ByteBuffer inout);

    /**
     * {@code out = in op right}, item by item, leaving {@code right} unchanged: for a caller that must keep its
     * right operand where it is and would otherwise copy it into {@code out} first, which is what this does unless
     * an implementation reads both operands and writes {@code out} in one pass. The three ranges have the same
     * length; {@code out} may be {@code right} but must not overlap {@code in}.
     */
    default void applyInto(ByteBuffer in, ByteBuffer right, ByteBuffer out) {
        out.duplicate().put(right.duplicate());
        apply(in, out);
    }
}
