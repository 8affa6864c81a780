package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;

import static dev.mpj.runtime.coll.TestVectors.SUM;
import static dev.mpj.runtime.coll.TestVectors.commutativeInts;
import static dev.mpj.runtime.coll.TestVectors.assertSame;
import static dev.mpj.runtime.coll.TestVectors.of;
import static dev.mpj.runtime.coll.TestVectors.zeros;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An arriving operand combined as its pieces come: the result is the combination of the whole message whatever
 * the pieces (whole items in order, a piece cut inside an item, pieces out of order, none at all), and the room is
 * left alone while the pieces can be combined where they lie.
 */
class FoldOnArrivalTest {
    private static final int BYTES = 96;

    /** {@code arriving op right}, from whole buffers. */
    private static ByteBuffer expected(ByteBuffer arriving, ByteBuffer right) {
        ByteBuffer out = right.duplicate();
        ByteBuffer copy = zeros(out.remaining());
        copy.put(out).flip();
        SUM.apply(arriving.duplicate(), copy);
        return copy;
    }

    /** Hands the message to {@code fold} in pieces cut at {@code cuts}, taken in the order given. */
    private static void deliver(FoldOnArrival fold, ByteBuffer message, int[][] pieces) {
        // the pieces lie at an offset within a larger buffer, as frames do in a channel
        ByteBuffer frame = zeros(message.remaining() + 20);
        frame.put(20, message, 0, message.remaining());
        for (int[] p : pieces) {
            fold.take(p[0], frame, 20 + p[0], p[1] - p[0]);
        }
    }

    @Test
    void wholeItemsInOrderAreCombinedWhereTheyLieAndTheRoomIsLeftAlone() {
        ByteBuffer arriving = of(1, BYTES, 3);
        ByteBuffer right = of(0, BYTES, 3);
        ByteBuffer out = zeros(BYTES);
        ByteBuffer room = zeros(BYTES);
        FoldOnArrival fold = new FoldOnArrival(SUM, room, right, out);
        deliver(fold, arriving, new int[][] {{0, 32}, {32, 40}, {40, 96}});
        fold.finish();
        assertSame(expected(arriving, right), out, "result");
        assertSame(zeros(BYTES), room, "room");
        assertSame(of(0, BYTES, 3), right, "right operand");
    }

    @ParameterizedTest(name = "pieces {0}")
    @ValueSource(strings = {"0-30,30-96", "0-32,64-96,32-64", "48-96,0-48", "0-96", "0-2,2-96", "-"})
    void anyPiecesGiveTheCombinationOfTheWholeMessage(String cuts) {
        ByteBuffer arriving = of(1, BYTES, 5);
        ByteBuffer right = of(0, BYTES, 5);
        ByteBuffer out = zeros(BYTES);
        FoldOnArrival fold = new FoldOnArrival(SUM, zeros(BYTES), right, out);
        if (cuts.equals("-")) {
            // a backend that copies into the room instead: here, the room filled by hand
            fold.room().put(0, arriving, 0, BYTES);
        } else {
            String[] parts = cuts.split(",");
            int[][] pieces = new int[parts.length][];
            for (int i = 0; i < parts.length; i++) {
                String[] ends = parts[i].split("-");
                pieces[i] = new int[] {Integer.parseInt(ends[0]), Integer.parseInt(ends[1])};
            }
            deliver(fold, arriving, pieces);
        }
        fold.finish();
        assertSame(expected(arriving, right), out, "result");
    }

    @Test
    void withoutARightOperandTheArrivingOneIsCombinedIntoTheOutput() {
        ByteBuffer arriving = of(1, BYTES, 7);
        ByteBuffer out = of(0, BYTES, 7);
        FoldOnArrival fold = new FoldOnArrival(SUM, zeros(BYTES), null, out);
        deliver(fold, arriving, new int[][] {{0, 48}, {48, 50}, {50, 96}});
        fold.finish();
        assertSame(expected(arriving, of(0, BYTES, 7)), out, "result");
    }

    @Test
    void aCombinationThatThrowsIsThrownByFinishNotByTake() {
        IllegalStateException boom = new IllegalStateException("user function failed");
        Reduction failing = commutativeInts((in, inout) -> {
            throw boom;
        });
        ByteBuffer arriving = of(1, BYTES, 9);
        ByteBuffer room = zeros(BYTES);
        FoldOnArrival fold = new FoldOnArrival(failing, room, of(0, BYTES, 9), zeros(BYTES));
        deliver(fold, arriving, new int[][] {{0, 32}, {32, 96}});
        assertSame(boom, assertThrows(IllegalStateException.class, fold::finish));
        assertEquals(arriving.get(40), room.get(40), "the pieces after the failure still land in the room");
    }
}
