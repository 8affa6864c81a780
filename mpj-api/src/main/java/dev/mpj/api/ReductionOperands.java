package dev.mpj.api;

import java.nio.ByteBuffer;

/**
 * A member's operand of a reduction and the room of its result where the caller holds them (a user's primitive
 * arrays), rather than packed into bytes: a runtime that moves the vector in ranges packs only the ranges it sends,
 * combines the arriving ranges with the operand straight into the result, and lands the others there, instead of
 * packing the whole operand first and unpacking the whole result after. Byte ranges count from the start of the
 * packed (little-endian) vector and lie at multiples of the item size; {@code src} and {@code dst} buffers are
 * addressed by absolute index and none of their positions or limits moves.
 *
 * <p>The operand and the result may be one vector ({@code MPI.IN_PLACE}): each item of the operand is read before
 * the same item of the result is written, as long as a caller packs or combines a range before it lands another
 * over it.
 */
public interface ReductionOperands {
    /** Bytes of the packed vector. */
    int bytes();

    /** Writes the operand's bytes {@code from} to {@code to} into {@code dst} from index {@code at}. */
    void packOperand(int from, int to, ByteBuffer dst, int at);

    /** Writes the result's bytes {@code from} to {@code to} into {@code dst} from index {@code at}. */
    void packResult(int from, int to, ByteBuffer dst, int at);

    /**
     * Result bytes {@code at} to {@code at + n} become {@code src}'s {@code n} bytes from index {@code from}, combined
     * ({@code arriving op mine}) with the same range of the operand, or of the result itself when {@code ofOperand}
     * is false.
     */
    void combine(ByteBuffer src, int from, int at, int n, boolean ofOperand);

    /** Result bytes {@code at} to {@code at + n} become {@code src}'s {@code n} bytes from index {@code from}. */
    void land(ByteBuffer src, int from, int at, int n);

    /** The whole operand packed, position 0 to limit, for a runtime that reduces packed vectors. */
    ByteBuffer packedOperand();

    /** A room for the whole packed result, position 0 to limit, which {@link #landRoom} then moves into the result. */
    ByteBuffer resultRoom();

    /** Moves the room of {@link #resultRoom} into the result, once filled. */
    void landRoom();
}
