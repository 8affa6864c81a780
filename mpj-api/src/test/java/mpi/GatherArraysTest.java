package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * Strided items are gathered through the thread's dense array of their type: reused from one pack or unpack to
 * the next, whatever their lengths, with each call's own values.
 */
class GatherArraysTest extends MpiTestSupport {
    @Test
    void theThreadsArrayOfATypeIsReusedForShorterLengths() {
        Object first = GatherArrays.take(ElementType.DOUBLE, 300);
        assertSame(first, GatherArrays.take(ElementType.DOUBLE, 120));
    }

    @Test
    void stridedPacksAndUnpacksOfFallingLengthsEachMoveTheirOwnValues() {
        start(1, 0);
        double[] grid = new double[300];
        for (int i = 0; i < grid.length; i++) {
            grid[i] = i + 0.5;
        }
        for (int points : new int[] {100, 40, 7}) {
            Datatype column = Datatype.Vector(points, 1, 3, MPI.DOUBLE);
            column.Commit();
            ByteBuffer packed = column.pack(grid, 1, 1, false).order(ByteOrder.LITTLE_ENDIAN);
            double[] wire = new double[points];
            packed.asDoubleBuffer().get(wire);
            double[] expected = new double[points];
            for (int i = 0; i < points; i++) {
                expected[i] = grid[1 + 3 * i];
            }
            assertArrayEquals(expected, wire, points + " points packed");

            double[] landed = new double[300];
            column.unpackFrom(packed.rewind(), landed, 1, 1);
            double[] expectedLanded = new double[300];
            for (int i = 0; i < points; i++) {
                expectedLanded[1 + 3 * i] = grid[1 + 3 * i];
            }
            assertArrayEquals(expectedLanded, landed, points + " points unpacked, nothing else written");
        }
    }
}
