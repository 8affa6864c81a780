package mpi;

import dev.mpj.api.ScratchBuffer;

import java.nio.ByteBuffer;

/**
 * A derived type with no data and so no primitive of its own: a {@code Struct} of no blocks or of bound
 * markers only, or a type built from such types. MPI allows it in communication, where a message of it
 * carries no bytes and its count is 0; any array or {@code ByteBuffer} stands for the buffer, which is
 * never touched.
 */
final class EmptyDatatype extends Datatype {
    EmptyDatatype(String name, Typemap map) {
        super(name, null, map, false);
    }

    @Override
    boolean holdsData() {
        return true;
    }

    @Override
    boolean acceptsArray(Object buf) {
        return buf.getClass().isArray();
    }

    @Override
    boolean acceptsByteBuffer() {
        return true;
    }

    @Override
    boolean acceptsHeapByteBuffer() {
        return true;
    }

    @Override
    String bufferKind() {
        return "an array or a ByteBuffer";
    }

    @Override
    ByteBuffer pack(Object buf, int offset, int count, boolean share, ScratchBuffer scratch) {
        return ByteBuffer.allocate(0);
    }

    @Override
    void packInto(Object buf, int offset, int count, ByteBuffer out) {
    }

    @Override
    void unpackFrom(ByteBuffer in, Object buf, int offset, int count) {
    }

    @Override
    boolean lendsTransferBuffers() {
        return false;
    }

    @Override
    ByteBuffer roomInPlace(Object buf, int offset, int count) {
        return null; // its receives take the receive buffer below
    }

    @Override
    ReceiveBuffer receiveBuffer(Object buf, int offset, int count, ScratchBuffer scratch) {
        return ReceiveBuffer.inPlace(ByteBuffer.allocate(0));
    }
}
