package mpi;

import java.nio.ByteBuffer;

/**
 * Copies the runs of a {@link Typemap.Cursor} between a buffer and dense data. The array copies are
 * written once per primitive so that each {@code System.arraycopy} sees its array types: an
 * {@code Object}-typed copy costs several times more, which dominates when runs are single elements
 * (the face of a 3D array normal to its fastest axis).
 */
final class RunCopy {
    private RunCopy() {
    }

    /** Copies the runs of {@code array} into {@code dense} from index 0, in order. */
    static void gather(Typemap.Cursor runs, Object array, Object dense) {
        int at = 0;
        if (array instanceof double[]) {
            double[] from = (double[]) array;
            double[] to = (double[]) dense;
            while (runs.next()) {
                System.arraycopy(from, runs.index, to, at, runs.length);
                at += runs.length;
            }
        } else if (array instanceof int[]) {
            int[] from = (int[]) array;
            int[] to = (int[]) dense;
            while (runs.next()) {
                System.arraycopy(from, runs.index, to, at, runs.length);
                at += runs.length;
            }
        } else if (array instanceof long[]) {
            long[] from = (long[]) array;
            long[] to = (long[]) dense;
            while (runs.next()) {
                System.arraycopy(from, runs.index, to, at, runs.length);
                at += runs.length;
            }
        } else if (array instanceof float[]) {
            float[] from = (float[]) array;
            float[] to = (float[]) dense;
            while (runs.next()) {
                System.arraycopy(from, runs.index, to, at, runs.length);
                at += runs.length;
            }
        } else {
            while (runs.next()) {
                System.arraycopy(array, runs.index, dense, at, runs.length);
                at += runs.length;
            }
        }
    }

    /** Copies {@code dense} from index 0 into the runs of {@code array}, in order. */
    static void scatter(Object dense, Typemap.Cursor runs, Object array) {
        int at = 0;
        if (array instanceof double[]) {
            double[] from = (double[]) dense;
            double[] to = (double[]) array;
            while (runs.next()) {
                System.arraycopy(from, at, to, runs.index, runs.length);
                at += runs.length;
            }
        } else if (array instanceof int[]) {
            int[] from = (int[]) dense;
            int[] to = (int[]) array;
            while (runs.next()) {
                System.arraycopy(from, at, to, runs.index, runs.length);
                at += runs.length;
            }
        } else if (array instanceof long[]) {
            long[] from = (long[]) dense;
            long[] to = (long[]) array;
            while (runs.next()) {
                System.arraycopy(from, at, to, runs.index, runs.length);
                at += runs.length;
            }
        } else if (array instanceof float[]) {
            float[] from = (float[]) dense;
            float[] to = (float[]) array;
            while (runs.next()) {
                System.arraycopy(from, at, to, runs.index, runs.length);
                at += runs.length;
            }
        } else {
            while (runs.next()) {
                System.arraycopy(dense, at, array, runs.index, runs.length);
                at += runs.length;
            }
        }
    }

    /** Copies the runs of {@code buffer} (indexed in elements of {@code elementBytes}) to {@code packed} at its position, advancing it. */
    static void gatherBytes(Typemap.Cursor runs, int elementBytes, ByteBuffer buffer, ByteBuffer packed) {
        int at = packed.position();
        while (runs.next()) {
            int bytes = runs.length * elementBytes;
            packed.put(at, buffer, runs.index * elementBytes, bytes);
            at += bytes;
        }
        packed.position(at);
    }

    /** Copies {@code packed} from its position into the runs of {@code buffer}, advancing it. */
    static void scatterBytes(ByteBuffer packed, Typemap.Cursor runs, int elementBytes, ByteBuffer buffer) {
        int at = packed.position();
        while (runs.next()) {
            int bytes = runs.length * elementBytes;
            buffer.put(runs.index * elementBytes, packed, at, bytes);
            at += bytes;
        }
        packed.position(at);
    }
}
