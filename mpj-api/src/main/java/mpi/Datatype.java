package mpi;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * An MPI datatype: how many values of one Java primitive type ({@link #Size()}) an item of the type
 * holds, and how far apart consecutive items lie in a buffer ({@link #Extent()}). As in mpiJava,
 * sizes, extents and bounds are counted in buffer elements, not bytes: {@code MPI.INT.Size()} is 1
 * and {@code MPI.INT2.Size()} is 2.
 *
 * <p>A buffer is a Java array of the type's element type ({@code int[]} for {@link MPI#INT} and
 * {@link MPI#INT2}, {@code Object[]} for {@link MPI#OBJECT}) or a <em>direct</em>
 * {@link ByteBuffer}. An {@code offset} is an index into the buffer in elements (for a
 * {@code ByteBuffer}, element {@code i} starts at byte {@code i * elementBytes}, indexed from 0
 * regardless of the buffer's position and limit, which are left unchanged); a {@code count} is in
 * items of the datatype. Data travel little-endian, so read and write a {@code ByteBuffer} buffer
 * with {@link ByteOrder#LITTLE_ENDIAN}.
 *
 * <p>The predefined types are the constants of {@link MPI}. Packing lives here, behind
 * {@link #pack}, {@link #receiveBuffer} and the count methods, so that derived datatypes only
 * override them.
 */
public class Datatype {
    private final String name;
    /** The primitive an item is made of; null for {@link MPI#OBJECT} and the markers that hold no data. */
    final ElementType element;
    private final int size;
    private final int lb;
    private final int ub;

    Datatype(String name, ElementType element, int size, int lb, int ub) {
        this.name = name;
        this.element = element;
        this.size = size;
        this.lb = lb;
        this.ub = ub;
    }

    /** A type of {@code size} contiguous elements. */
    Datatype(String name, ElementType element, int size) {
        this(name, element, size, 0, size);
    }

    /** The number of buffer elements one item holds. */
    public int Size() {
        return size;
    }

    /** The distance, in buffer elements, from one item to the next: {@code Ub() - Lb()}. */
    public int Extent() {
        return ub - lb;
    }

    /** The lower bound of an item, in buffer elements. */
    public int Lb() {
        return lb;
    }

    /** The upper bound of an item, in buffer elements. */
    public int Ub() {
        return ub;
    }

    /** Commits the type for communication; predefined types are always committed. */
    public void Commit() {
    }

    /** Frees the type; a no-op, as the garbage collector reclaims it. */
    public void free() {
    }

    @Override
    public String toString() {
        return name;
    }

    // ---- packing strategy: derived datatypes override what follows ----

    /** Bytes one item occupies on the wire, or -1 if it depends on the data (serialised objects). */
    int packedItemBytes() {
        return element == null ? 0 : size * element.bytes;
    }

    /** Whether {@code buf} is an array this type can describe (not a {@code ByteBuffer}). */
    boolean acceptsArray(Object buf) {
        return element != null && element.arrayClass.isInstance(buf);
    }

    /** Whether a direct {@code ByteBuffer} can hold this type. */
    boolean acceptsByteBuffer() {
        return element != null;
    }

    /** Whether the type holds data and so can describe a buffer ({@code MPI.NULL}, {@code LB}, {@code UB} cannot). */
    boolean holdsData() {
        return element != null;
    }

    /** What kind of buffer this type needs, for error messages. */
    String bufferKind() {
        return element.arrayName() + " or a direct ByteBuffer";
    }

    /**
     * Checks a buffer argument of the call named {@code call}: its kind, and that {@code count}
     * items from {@code offset} fit in it.
     */
    final void checkBuffer(String call, Object buf, int offset, int count, boolean forReceive) {
        if (buf == null) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": buffer is null");
        }
        if (!holdsData()) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + name + " holds no data and cannot describe a buffer");
        }
        long available;
        if (buf instanceof ByteBuffer) {
            ByteBuffer bytes = (ByteBuffer) buf;
            if (!acceptsByteBuffer()) {
                throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + name + " cannot use a ByteBuffer; it needs "
                        + bufferKind());
            }
            if (!bytes.isDirect()) {
                throw new MPIException(MPI.ERR_BUFFER, call + ": a ByteBuffer buffer must be direct "
                        + "(ByteBuffer.allocateDirect), got a heap buffer");
            }
            if (forReceive && bytes.isReadOnly()) {
                throw new MPIException(MPI.ERR_BUFFER, call + ": cannot receive into a read-only ByteBuffer");
            }
            available = bytes.capacity() / element.bytes;
        } else {
            if (!acceptsArray(buf)) {
                throw new MPIException(MPI.ERR_TYPE, call + ": buffer of type " + buf.getClass().getSimpleName()
                        + " does not match datatype " + name + ", which needs " + bufferKind());
            }
            available = Array.getLength(buf);
        }
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, call + ": count must not be negative, was " + count);
        }
        if (offset < 0) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": offset must not be negative, was " + offset);
        }
        long needed = offset + (long) count * Extent();
        if (needed > available) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": buffer too short: offset " + offset + " + count " + count
                    + " of " + name + " needs " + needed + " elements, the buffer has " + available);
        }
        if ((long) count * packedItemBytes() > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_COUNT, call + ": " + count + " items of " + name
                    + " exceed the largest message (2 GiB)");
        }
    }

    /**
     * The bytes of {@code count} items from {@code buf} at {@code offset}, little-endian, position 0 to
     * limit. With {@code share} the result may alias the user's buffer (a {@code byte[]} or direct
     * {@code ByteBuffer}); without it the result is always a private copy. Arguments are checked.
     */
    ByteBuffer pack(Object buf, int offset, int count, boolean share) {
        int elementBytes = element.bytes;
        int n = count * size;
        if (buf instanceof ByteBuffer) {
            ByteBuffer slice = ((ByteBuffer) buf).slice(offset * elementBytes, n * elementBytes);
            return share ? slice : ByteBuffer.allocate(slice.remaining()).put(slice).flip();
        }
        if (share && element == ElementType.BYTE) {
            return ByteBuffer.wrap((byte[]) buf, offset, n).slice();
        }
        ByteBuffer out = ByteBuffer.allocate(n * elementBytes).order(ByteOrder.LITTLE_ENDIAN);
        element.write(out, buf, offset, n);
        return out.flip();
    }

    /** Where a receive of up to {@code count} items into {@code buf} at {@code offset} lands. Arguments are checked. */
    ReceiveBuffer receiveBuffer(Object buf, int offset, int count) {
        int elementBytes = element.bytes;
        int n = count * size;
        if (buf instanceof ByteBuffer) {
            return ReceiveBuffer.inPlace(((ByteBuffer) buf).slice(offset * elementBytes, n * elementBytes));
        }
        if (element == ElementType.BYTE) {
            return ReceiveBuffer.inPlace(ByteBuffer.wrap((byte[]) buf, offset, n).slice());
        }
        ByteBuffer room = ByteBuffer.allocate(n * elementBytes);
        ElementType type = element;
        return ReceiveBuffer.unpacking(room, (completed, status) -> {
            int received = completed.byteCount();
            ByteBuffer data = room.duplicate().clear().limit(received).order(ByteOrder.LITTLE_ENDIAN);
            type.read(data, buf, offset, received / elementBytes);
        });
    }

    /** {@link Status#Get_count}: whole items in a message, or {@link MPI#UNDEFINED}. */
    int countIn(Status status) {
        return wholeUnits(status.byteCount, packedItemBytes());
    }

    /** {@link Status#Get_elements}: whole primitive elements in a message, or {@link MPI#UNDEFINED}. */
    int elementsIn(Status status) {
        return wholeUnits(status.byteCount, element == null ? 0 : element.bytes);
    }

    private static int wholeUnits(int bytes, int unit) {
        if (unit == 0) {
            return bytes == 0 ? 0 : MPI.UNDEFINED;
        }
        return bytes % unit == 0 ? bytes / unit : MPI.UNDEFINED;
    }
}
