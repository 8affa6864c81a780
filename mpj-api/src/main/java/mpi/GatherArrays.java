package mpi;

import java.lang.reflect.Array;

/**
 * The calling thread's dense arrays, one per element type, that strided data are gathered into before packing
 * and scattered from after unpacking ({@code Datatype.gathersFirst}): a face of a 3D array sent every iteration
 * as a derived datatype would otherwise allocate and zero one per send and per receive. An array is used only
 * within the pack or unpack that took it; arrays longer than {@link #MAX_KEPT_BYTES} are not kept.
 */
final class GatherArrays {
    static final int MAX_KEPT_BYTES = 4 << 20;

    // a subclass, not withInitial(...::new): linking that method reference is a bootstrap call in the
    // first collective of every rank
    private static final ThreadLocal<GatherArrays> OF_THREAD = new ThreadLocal<>() {
        @Override
        protected GatherArrays initialValue() {
            return new GatherArrays();
        }
    };

    private final Object[] kept = new Object[ElementType.values().length];

    private GatherArrays() {
    }

    /** An array of {@code element}'s type with at least {@code length} elements; content undefined. */
    static Object take(ElementType element, int length) {
        return OF_THREAD.get().arrayOf(element, length);
    }

    private Object arrayOf(ElementType element, int length) {
        Object array = kept[element.ordinal()];
        if (array != null && Array.getLength(array) >= length) {
            return array;
        }
        Object fresh = Array.newInstance(element.arrayClass.getComponentType(), length);
        if ((long) length * element.bytes <= MAX_KEPT_BYTES) {
            kept[element.ordinal()] = fresh;
        }
        return fresh;
    }
}
