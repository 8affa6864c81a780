package mpi;

/**
 * {@link MPI#PACKED}: bytes made by {@link Comm#Pack}. Besides a {@code byte[]} and a direct
 * {@code ByteBuffer}, it takes the heap {@code ByteBuffer} a program may have packed into.
 */
final class PackedDatatype extends Datatype {
    PackedDatatype(String name) {
        super(name, ElementType.BYTE, 1);
    }

    @Override
    boolean acceptsHeapByteBuffer() {
        return true;
    }

    @Override
    String bufferKind() {
        return "byte[] or a ByteBuffer";
    }
}
