package mpi;

import dev.mpj.api.Operation;
import dev.mpj.api.ScratchBuffer;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * An MPI datatype: how many values of one Java primitive type ({@link #Size()}) an item of the type
 * holds, where they lie, and how far apart consecutive items lie in a buffer ({@link #Extent()}). As
 * in mpiJava, sizes, extents, bounds, strides and displacements are counted in buffer elements, not
 * bytes: {@code MPI.INT.Size()} is 1 and {@code MPI.INT2.Size()} is 2.
 *
 * <p>A buffer is a Java array of the type's element type ({@code int[]} for {@link MPI#INT} and
 * {@link MPI#INT2}, {@code Object[]} for {@link MPI#OBJECT}) or a <em>direct</em>
 * {@link ByteBuffer} ({@link MPI#PACKED} also takes a heap one). An {@code offset} is an index into
 * the buffer in elements (for a {@code ByteBuffer}, element {@code i} starts at byte
 * {@code i * elementBytes}, indexed from 0 regardless of the buffer's position and limit, which are
 * left unchanged); a {@code count} is in items of the datatype. Data travel little-endian, so read
 * and write a {@code ByteBuffer} buffer with {@link ByteOrder#LITTLE_ENDIAN}.
 *
 * <p>The predefined types are the constants of {@link MPI}. Derived types are built with
 * {@link #Contiguous}, {@link #Vector}, {@link #Hvector}, {@link #Indexed}, {@link #Hindexed} and
 * {@link #Struct}, and must be {@link #Commit() committed} before they describe a buffer. As in
 * mpiJava every derived type has one <em>base type</em>, the primitive of the Java array that holds
 * its data: a {@code Struct} cannot mix primitives (only the {@link MPI#LB} and {@link MPI#UB}
 * markers may join any type). Types derived from {@link MPI#OBJECT} select slots of an {@code Object[]}
 * (displacements, strides and extents count slots); a {@code Struct} mixing them with primitives is
 * {@code ERR_TYPE}, as no one array holds both. A type
 * of no data (a {@code Contiguous} of 0, a {@code Struct} of no blocks) may be sent and received: its
 * messages carry no bytes and count 0 items, and any array stands for its buffer. The
 * H-variants take strides and displacements in buffer elements too, as the mpiJava 1.2 binding
 * specifies ("in units of the base type, not bytes"): a Java array has no byte addresses, and code
 * written for mpiJava or MPJ Express runs unchanged. A type and the ones built from it are
 * flattened once, when built, into a list of contiguous runs ({@code Typemap}), so sending a
 * strided section is a loop of bulk copies.
 *
 * <p>Packing lives here, behind {@link #pack}, {@link #receiveBuffer} and the count methods, so that
 * communication code never looks at a type's layout.
 */
public class Datatype {
    /** Average run length, in elements, below which array data are gathered before packing ({@link #gathersFirst}). */
    private static final int SHORT_RUN = 16;
    /** Whether arrays hold their elements little-endian, as messages carry them ({@link #landsInArray}). */
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final String name;
    /** The primitive an item is made of; null for {@link MPI#OBJECT} and the markers that hold no data. */
    final ElementType element;
    /** The layout of one item, in buffer elements. */
    final Typemap map;
    /** Predefined types are born committed and cannot be freed. */
    private final boolean predefined;
    /**
     * For a predefined type of primitive values ({@code MPI.INT}, {@code MPI.DOUBLE2}, ...), its element; null for
     * derived types, {@code OBJECT} and the markers: the types whose buffer checks need no more than an array's
     * class and length ({@link #isArrayRun}).
     */
    private final ElementType predefinedElement;
    private boolean committed;
    private boolean freed;

    /** A predefined type of {@code size} contiguous elements. */
    Datatype(String name, ElementType element, int size) {
        this(name, element, Typemap.contiguous(size), true);
    }

    Datatype(String name, ElementType element, Typemap map, boolean predefined) {
        this.name = name;
        this.element = element;
        this.map = map;
        this.predefined = predefined;
        this.committed = predefined;
        this.predefinedElement = predefined ? element : null;
    }

    /** The number of buffer elements one item holds. */
    public int Size() {
        return map.size;
    }

    /** The distance, in buffer elements, from one item to the next: {@code Ub() - Lb()}. */
    public int Extent() {
        return map.extent();
    }

    /** The lower bound of an item, in buffer elements. */
    public int Lb() {
        return map.lb;
    }

    /** The upper bound of an item, in buffer elements. */
    public int Ub() {
        return map.ub;
    }

    /** Commits the type for communication; predefined types are always committed. */
    public void Commit() {
        checkNotFreed("Commit", this);
        committed = true;
    }

    /**
     * Frees a derived type: it may no longer be used, though types built from it and communication
     * already started with it are unaffected. {@code ERR_ARG} for a predefined type, which cannot be
     * freed.
     */
    public void free() {
        if (predefined) {
            throw new MPIException(MPI.ERR_ARG, "free: " + name + " is predefined and cannot be freed");
        }
        freed = true;
    }

    @Override
    public String toString() {
        return name;
    }

    // ---- derived type constructors ----

    /** {@code count} copies of {@code oldtype}, each {@code oldtype.Extent()} after the previous. */
    public static Datatype Contiguous(int count, Datatype oldtype) {
        String name = "Contiguous(" + count + ", " + oldtype + ")";
        ElementType element = baseOf(name, oldtype);
        checkCount(name, count);
        return derived(name, element, isObjects(oldtype), new Typemap.Builder(name).add(oldtype.map, 0, count));
    }

    /**
     * {@code count} blocks of {@code blocklength} copies of {@code oldtype}, block {@code i} starting
     * {@code i * stride} extents of {@code oldtype} from the origin.
     */
    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) {
        String name = "Vector(" + count + ", " + blocklength + ", " + stride + ", " + oldtype + ")";
        return vector(name, count, blocklength, (long) stride * extentOf(oldtype), oldtype);
    }

    /**
     * As {@link #Vector}, but {@code stride} is in buffer elements (of the base type) rather than
     * extents of {@code oldtype}: the mpiJava 1.2 reading of MPI's byte stride.
     */
    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) {
        String name = "Hvector(" + count + ", " + blocklength + ", " + stride + ", " + oldtype + ")";
        return vector(name, count, blocklength, stride, oldtype);
    }

    /**
     * Blocks of {@code blocklengths[i]} copies of {@code oldtype}, block {@code i} starting
     * {@code displacements[i]} extents of {@code oldtype} from the origin.
     */
    public static Datatype Indexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        String name = "Indexed(" + blocks(blocklengths) + ", " + oldtype + ")";
        return indexed(name, blocklengths, displacements, extentOf(oldtype), oldtype);
    }

    /**
     * As {@link #Indexed}, but {@code displacements} are in buffer elements (of the base type)
     * rather than extents of {@code oldtype}: the mpiJava 1.2 reading of MPI's byte displacements.
     */
    public static Datatype Hindexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        String name = "Hindexed(" + blocks(blocklengths) + ", " + oldtype + ")";
        return indexed(name, blocklengths, displacements, 1, oldtype);
    }

    /**
     * Blocks of {@code blocklengths[i]} copies of {@code types[i]}, block {@code i} starting
     * {@code displacements[i]} buffer elements from the origin. All types holding data must share
     * one base type; {@link MPI#LB} and {@link MPI#UB} mark the bounds explicitly.
     */
    public static Datatype Struct(int[] blocklengths, int[] displacements, Datatype[] types) {
        String name = "Struct(" + blocks(blocklengths) + ")";
        checkBlocks(name, blocklengths, displacements);
        if (types == null || types.length != blocklengths.length) {
            throw new MPIException(MPI.ERR_ARG, name + ": needs one type per block, got "
                    + (types == null ? "null" : types.length + " types for " + blocklengths.length + " blocks"));
        }
        ElementType element = null;
        Datatype first = null;
        Datatype objects = null;
        Typemap.Builder map = new Typemap.Builder(name);
        for (int i = 0; i < types.length; i++) {
            Datatype type = types[i];
            if (type == MPI.LB || type == MPI.UB) {
                if (blocklengths[i] > 0) {
                    if (type == MPI.LB) {
                        map.markLb(displacements[i]);
                    } else {
                        map.markUb(displacements[i]);
                    }
                }
                continue;
            }
            ElementType base = baseOf(name + " types[" + i + "]", type);
            if (isObjects(type) && objects == null) {
                objects = type;
            }
            if (objects != null && (base != null || element != null)) {
                throw new MPIException(MPI.ERR_TYPE, name + ": types[" + i + "] " + type + " and "
                        + (base != null ? objects : first) + " mix objects and primitives; one array holds a "
                        + "Struct's data, so a Struct of MPI.OBJECT holds only objects");
            }
            if (base == null) {
                map.add(type.map, displacements[i], blocklengths[i]);
                continue;
            }
            if (element == null) {
                element = base;
                first = type;
            } else if (base != element) {
                throw new MPIException(MPI.ERR_TYPE, name + ": types[" + i + "] " + type + " has base type "
                        + base.arrayName() + " but " + first + " has " + element.arrayName()
                        + "; one Java array holds a Struct's data, so all its types must share one primitive");
            }
            map.add(type.map, displacements[i], blocklengths[i]);
        }
        return derived(name, element, objects != null, map);
    }

    private static Datatype vector(String name, int count, int blocklength, long stride, Datatype oldtype) {
        ElementType element = baseOf(name, oldtype);
        checkCount(name, count);
        checkBlocklength(name, blocklength, "blocklength");
        Typemap.Builder map = new Typemap.Builder(name);
        for (int i = 0; i < count; i++) {
            map.add(oldtype.map, i * stride, blocklength);
        }
        return derived(name, element, isObjects(oldtype), map);
    }

    private static Datatype indexed(String name, int[] blocklengths, int[] displacements, long unit, Datatype oldtype) {
        ElementType element = baseOf(name, oldtype);
        checkBlocks(name, blocklengths, displacements);
        Typemap.Builder map = new Typemap.Builder(name);
        for (int i = 0; i < blocklengths.length; i++) {
            map.add(oldtype.map, displacements[i] * unit, blocklengths[i]);
        }
        return derived(name, element, isObjects(oldtype), map);
    }

    /**
     * A derived type: of {@code objects} ({@link ObjectDatatype}), or of a primitive; one with neither holds no
     * data (every part of it is empty): an {@link EmptyDatatype}.
     */
    private static Datatype derived(String name, ElementType element, boolean objects, Typemap.Builder map) {
        if (objects) {
            return new ObjectDatatype(name, map.build());
        }
        return element == null ? new EmptyDatatype(name, map.build()) : new Datatype(name, element, map.build(), false);
    }

    private static boolean isObjects(Datatype type) {
        return type instanceof ObjectDatatype;
    }

    /**
     * The primitive {@code oldtype} is made of, or null for objects or an empty derived type (which adds bounds
     * but no data); raises ERR_TYPE if it cannot be built upon.
     */
    private static ElementType baseOf(String what, Datatype oldtype) {
        if (oldtype == null) {
            throw new MPIException(MPI.ERR_TYPE, what + ": datatype is null");
        }
        checkNotFreed(what, oldtype);
        if (oldtype instanceof EmptyDatatype || isObjects(oldtype)) {
            return null;
        }
        if (oldtype == MPI.LB || oldtype == MPI.UB) {
            throw new MPIException(MPI.ERR_TYPE, what + ": " + oldtype + " is a bound marker, allowed only among the "
                    + "types of a Struct");
        }
        if (oldtype.element == null) {
            throw new MPIException(MPI.ERR_TYPE, what + ": " + oldtype + " holds no data to build a type from");
        }
        return oldtype.element;
    }

    private static int extentOf(Datatype oldtype) {
        return oldtype == null ? 0 : oldtype.Extent();
    }

    private static void checkNotFreed(String what, Datatype type) {
        if (type.freed) {
            throw new MPIException(MPI.ERR_TYPE, what + ": datatype " + type + " has been freed");
        }
    }

    private static void checkCount(String what, int count) {
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, what + ": count must not be negative, was " + count);
        }
    }

    private static void checkBlocklength(String what, int blocklength, String argument) {
        if (blocklength < 0) {
            throw new MPIException(MPI.ERR_ARG, what + ": " + argument + " must not be negative, was " + blocklength);
        }
    }

    private static void checkBlocks(String what, int[] blocklengths, int[] displacements) {
        if (blocklengths == null || displacements == null) {
            throw new MPIException(MPI.ERR_ARG, what + ": " + (blocklengths == null ? "blocklengths" : "displacements")
                    + " is null");
        }
        if (blocklengths.length != displacements.length) {
            throw new MPIException(MPI.ERR_ARG, what + ": " + blocklengths.length + " blocklengths but "
                    + displacements.length + " displacements");
        }
        for (int i = 0; i < blocklengths.length; i++) {
            checkBlocklength(what, blocklengths[i], "blocklengths[" + i + "]");
        }
    }

    private static String blocks(int[] blocklengths) {
        return blocklengths == null ? "null" : blocklengths.length + " blocks";
    }

    // ---- packing strategy: communication goes through what follows ----

    /** Bytes one item occupies on the wire, or -1 if it depends on the data (serialised objects). */
    int packedItemBytes() {
        return element == null ? 0 : Size() * element.bytes;
    }

    /** Whether {@code buf} is an array this type can describe (not a {@code ByteBuffer}). */
    boolean acceptsArray(Object buf) {
        return element != null && element.arrayClass.isInstance(buf);
    }

    /** Whether a direct {@code ByteBuffer} can hold this type. */
    boolean acceptsByteBuffer() {
        return element != null;
    }

    /** Whether a heap {@code ByteBuffer} can hold this type too (only {@link MPI#PACKED}: packed bytes). */
    boolean acceptsHeapByteBuffer() {
        return false;
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
     * Checks a buffer argument of the call named {@code call}: the type is usable, the buffer's kind,
     * and that the elements {@code count} items from {@code offset} touch lie inside it.
     */
    final void checkBuffer(String call, Object buf, int offset, int count, boolean forReceive) {
        if (isArrayRun(buf, offset, count)) {
            return;
        }
        if (buf == null) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": buffer is null");
        }
        checkUsable(call);
        long available;
        if (buf instanceof ByteBuffer) {
            ByteBuffer bytes = (ByteBuffer) buf;
            if (!acceptsByteBuffer()) {
                throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + name + " cannot use a ByteBuffer; it needs "
                        + bufferKind());
            }
            if (!bytes.isDirect() && !acceptsHeapByteBuffer()) {
                throw new MPIException(MPI.ERR_BUFFER, call + ": a ByteBuffer buffer must be direct "
                        + "(ByteBuffer.allocateDirect), got a heap buffer");
            }
            if (forReceive && bytes.isReadOnly()) {
                throw new MPIException(MPI.ERR_BUFFER, call + ": cannot receive into a read-only ByteBuffer");
            }
            available = element == null ? 0 : bytes.capacity() / element.bytes;
        } else {
            if (!acceptsArray(buf)) {
                throw new MPIException(MPI.ERR_TYPE, call + ": buffer of type " + buf.getClass().getSimpleName()
                        + " does not match datatype " + name + ", which needs " + bufferKind());
            }
            // a primitive array's own length: reflection's is a native call in cold code
            available = element != null ? element.length(buf) : Array.getLength(buf);
        }
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, call + ": count must not be negative, was " + count);
        }
        if (offset < 0) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": offset must not be negative, was " + offset);
        }
        if (count > 0 && map.size > 0) {
            long first = offset + (long) map.dataLo;
            long end = offset + (long) (count - 1) * map.extent() + map.dataHi;
            if (first < 0) {
                throw new MPIException(MPI.ERR_BUFFER, call + ": " + name + " at offset " + offset
                        + " reaches element " + first + ", before the start of the buffer");
            }
            if (end > available) {
                throw new MPIException(MPI.ERR_BUFFER, call + ": buffer too short: offset " + offset + " + count "
                        + count + " of " + name + " needs " + end + " elements, the buffer has " + available);
            }
        }
        if ((long) count * packedItemBytes() > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_COUNT, call + ": " + count + " items of " + name
                    + " exceed the largest message (2 GiB)");
        }
    }

    /**
     * Whether {@code buf} is this predefined primitive type's array and holds {@code count} items from
     * {@code offset} within the largest message: all that {@link #checkBuffer} asks of the most common buffer, in
     * a few reads and no calls but the length's. A predefined type is always committed and never freed, and its
     * items lie back to back from element 0. Its calls run per message, and in a cold caller (a woken receiver, a
     * first sender) each call costs far more than in C2's code.
     */
    private boolean isArrayRun(Object buf, int offset, int count) {
        ElementType e = predefinedElement;
        if (e == null || buf == null || buf.getClass() != e.arrayClass || offset < 0 || count < 0) {
            return false;
        }
        long elements = (long) count * map.size;
        return offset + elements <= e.length(buf) && elements * e.bytes <= Integer.MAX_VALUE;
    }

    /** For a predefined type of one primitive value per item ({@code MPI.INT}, not {@code MPI.INT2}), its element; else null. */
    final ElementType singleValueElement() {
        return map.size == 1 ? predefinedElement : null;
    }

    /**
     * Raises ERR_TYPE unless the type may describe a buffer now: it holds data (or is an empty derived type), is
     * committed and not freed.
     */
    final void checkUsable(String call) {
        if (!holdsData()) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + name + " holds no data and cannot describe a buffer");
        }
        checkNotFreed(call, this);
        if (!committed) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype " + name + " is not committed; call Commit() first");
        }
    }

    /**
     * The bytes of {@code count} items from {@code buf} at {@code offset}, little-endian, position 0 to
     * limit. With {@code share} the result may alias the user's buffer (a {@code byte[]} or
     * {@code ByteBuffer} holding the items as one run); without it the result is always a private
     * copy. Arguments are checked.
     */
    final ByteBuffer pack(Object buf, int offset, int count, boolean share) {
        return pack(buf, offset, count, share, null);
    }

    /** {@link #pack(Object, int, int, boolean)}, a copy made in {@code scratch} (null: in a buffer of its own). */
    ByteBuffer pack(Object buf, int offset, int count, boolean share, ScratchBuffer scratch) {
        int elementBytes = element.bytes;
        int n = count * map.size;
        if (share && sharesBytes(buf, count)) {
            int first = offset + map.firstOffset();
            if (buf instanceof ByteBuffer) {
                return ((ByteBuffer) buf).slice(first * elementBytes, n * elementBytes);
            }
            return ByteBuffer.wrap((byte[]) buf, first, n).slice();
        }
        ByteBuffer out = scratch == null ? ByteBuffer.allocate(n * elementBytes).order(ByteOrder.LITTLE_ENDIAN)
                : scratch.take(n * elementBytes);
        return packCopy(buf, offset, count, out);
    }

    /**
     * Whether {@code count} items of {@code buf} are one run of a {@code byte[]}, which a send reads and a non-blocking
     * receive writes in place.
     */
    boolean isByteArrayRun(Object buf, int count) {
        return buf instanceof byte[] && sharesBytes(buf, count);
    }

    /** Whether {@code count} items in {@code buf} are one run of bytes a send may read in place. */
    private boolean sharesBytes(Object buf, int count) {
        return map.isContiguousFor(count) && (buf instanceof ByteBuffer || element == ElementType.BYTE);
    }

    /** Packs the items into {@code out} (little-endian, position 0, room for them) and returns it flipped. */
    private ByteBuffer packCopy(Object buf, int offset, int count, ByteBuffer out) {
        if (map.isContiguousFor(count) && !(buf instanceof ByteBuffer)) {
            element.write(out, buf, offset + map.firstOffset(), count * map.size); // one run: no cursor to walk
        } else {
            packInto(buf, offset, count, out);
        }
        return out.flip();
    }

    /**
     * For a point-to-point send: the packed items in a buffer lent by {@link TransferBuffers}, which the caller
     * gives back once the send no longer reads it; null when {@code pack(buf, offset, count, true)} needs no copy
     * of its own (the user's bytes read in place). Arguments are checked.
     */
    ByteBuffer packLent(Object buf, int offset, int count) {
        if (!lendsTransferBuffers() || sharesBytes(buf, count)) {
            return null;
        }
        return packCopy(buf, offset, count, TransferBuffers.lendForSend(count * map.size * element.bytes));
    }

    /**
     * Copies the values of {@code count} items from {@code buf} at {@code offset} into {@code out} (which
     * must be little-endian) at its position, advancing it. Arguments are checked.
     */
    void packInto(Object buf, int offset, int count, ByteBuffer out) {
        Typemap.Cursor runs = map.cursor(offset, count, Long.MAX_VALUE);
        if (buf instanceof ByteBuffer) {
            RunCopy.gatherBytes(runs, element.bytes, (ByteBuffer) buf, out);
        } else if (gathersFirst()) {
            int n = count * map.size;
            Object dense = GatherArrays.take(element, n);
            RunCopy.gather(runs, buf, dense);
            element.write(out, dense, 0, n);
        } else {
            while (runs.next()) {
                element.write(out, buf, runs.index, runs.length);
            }
        }
    }

    /**
     * {@link Comm#Pack}: packs {@code count} items from {@code buf} at {@code offset} into {@code outbuf} from
     * byte {@code position}; returns the position after them. The buffer argument is checked.
     */
    int packAt(String call, Object buf, int offset, int count, ByteBuffer outbuf, int position) {
        int bytes = packedBytes(call, count);
        checkPackedRange(call, outbuf, position, bytes, true);
        packInto(buf, offset, count, littleEndianFrom(outbuf, position));
        return position + bytes;
    }

    /** {@link Comm#Unpack}: the inverse of {@link #packAt}. */
    int unpackAt(String call, ByteBuffer inbuf, int position, Object buf, int offset, int count) {
        int bytes = packedBytes(call, count);
        checkPackedRange(call, inbuf, position, bytes, false);
        unpackFrom(littleEndianFrom(inbuf, position).limit(position + bytes), buf, offset, count);
        return position + bytes;
    }

    /** A little-endian view of all of {@code packed} from byte {@code position}, whatever its position and limit. */
    static ByteBuffer littleEndianFrom(ByteBuffer packed, int position) {
        return packed.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN).position(position);
    }

    /** Bytes {@code count} packed items take; {@code ERR_TYPE} for types of no fixed size. */
    int packedBytes(String call, int count) {
        int itemBytes = packedItemBytes();
        if (itemBytes < 0) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + this + " has no fixed packed size: objects have a "
                    + "size only once serialised (mpiJava 1.2 makes Pack_size of MPI.OBJECT an error); Pack into a "
                    + "buffer with room and use the position it returns");
        }
        long bytes = (long) count * itemBytes;
        if (bytes > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_COUNT, call + ": " + count + " items of " + this
                    + " exceed 2 GiB of packed bytes");
        }
        return (int) bytes;
    }

    static void checkPackedRange(String call, ByteBuffer packed, int position, int bytes, boolean writing) {
        String which = writing ? "outbuf" : "inbuf";
        if (packed == null) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": " + which + " is null");
        }
        if (writing && packed.isReadOnly()) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": cannot pack into a read-only ByteBuffer");
        }
        if (position < 0 || (long) position + bytes > packed.capacity()) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": " + bytes + " packed bytes from position " + position
                    + " do not fit " + which + " of capacity " + packed.capacity());
        }
    }

    /**
     * Copies the values of up to {@code count} items (the whole of {@code in} from its position,
     * little-endian; a last item may be partial) into their places in {@code buf} at {@code offset},
     * advancing {@code in}. Arguments are checked.
     */
    void unpackFrom(ByteBuffer in, Object buf, int offset, int count) {
        int elements = (int) Math.min(in.remaining() / element.bytes, (long) count * map.size);
        Typemap.Cursor runs = map.cursor(offset, count, elements);
        if (buf instanceof ByteBuffer) {
            RunCopy.scatterBytes(in, runs, element.bytes, (ByteBuffer) buf);
        } else if (gathersFirst()) {
            Object dense = GatherArrays.take(element, elements);
            element.read(in, dense, 0, elements);
            RunCopy.scatter(dense, runs, buf);
        } else {
            while (runs.next()) {
                element.read(in, buf, runs.index, runs.length);
            }
        }
    }

    /**
     * Whether array data move through a dense array of their own type: a typed-view bulk copy per run
     * costs a view, which dominates when runs are a few elements long (a z-face of a 3D array is
     * runs of one), while {@code System.arraycopy} per run is cheap; long runs are copied directly.
     */
    private boolean gathersFirst() {
        return element != ElementType.BYTE && element != ElementType.BOOLEAN && map.runCount() > 1
                && map.size < SHORT_RUN * (long) map.runCount();
    }

    /**
     * Where a point-to-point receive of up to {@code count} items into {@code buf} at {@code offset} lands: a room
     * it needs is lent by {@link TransferBuffers} and given back once unpacked. Arguments are checked.
     */
    ReceiveBuffer receiveBuffer(Object buf, int offset, int count) {
        return lendsTransferBuffers() ? receiveBuffer(buf, offset, count, null, true)
                : receiveBuffer(buf, offset, count, null);
    }

    /**
     * The part of {@code buf} a receive of {@code count} items lands in directly (one run of a {@code ByteBuffer}
     * or a {@code byte[]}), from its position to its limit, or null when it needs a room to be unpacked from. A
     * {@code byte[]} is wrapped without a slice: the runtime writes from the room's position.
     */
    ByteBuffer roomInPlace(Object buf, int offset, int count) {
        if (!map.isContiguousFor(count)) {
            return null;
        }
        int elementBytes = element.bytes;
        int n = count * map.size;
        int first = offset + map.firstOffset();
        if (buf instanceof ByteBuffer) {
            return ((ByteBuffer) buf).slice(first * elementBytes, n * elementBytes);
        }
        return element == ElementType.BYTE ? ByteBuffer.wrap((byte[]) buf, first, n) : null;
    }

    /**
     * Whether a receive of {@code count} items into {@code buf} is read from its room as one dense run of a
     * primitive array other than {@code byte[]} ({@link #readDense}); a {@code byte[]} or {@code ByteBuffer} run
     * is received in place instead.
     */
    boolean readsDenseArray(Object buf, int count) {
        return element != ElementType.BYTE && !(buf instanceof ByteBuffer) && lendsTransferBuffers()
                && map.isContiguousFor(count);
    }

    /**
     * Whether a receive of {@code count} items into {@code buf} may be copied straight into the array
     * ({@link dev.mpj.api.BlockingReceiver}, into an array): a dense run of a primitive array whose elements are
     * the message's little-endian bytes as they are, on a platform that lays them out so. Not a {@code boolean[]},
     * whose bytes read as 0 or 1.
     */
    boolean landsInArray(Object buf, int count) {
        return NATIVE_LITTLE_ENDIAN && element != ElementType.BOOLEAN && readsDenseArray(buf, count);
    }

    /**
     * Whether a non-blocking receive of {@code count} items into {@code buf} may be copied straight into the array
     * ({@link dev.mpj.api.MpiBackend#receiveIntoArray}): what {@link #landsInArray} says, and a {@code byte[]} run
     * too ({@link #isByteArrayRun}), whose bytes have no order. A blocking receive takes a {@code byte[]} run through
     * its room in place.
     */
    boolean postsIntoArray(Object buf, int count) {
        return landsInArray(buf, count) || isByteArrayRun(buf, count);
    }

    /** The index in the array of the first element of a dense run of this type from item {@code offset}. */
    int firstElement(int offset) {
        return offset + map.firstOffset();
    }

    /** The bytes of {@code count} items of a type whose items are dense. */
    int denseBytes(int count) {
        return count * map.size * element.bytes;
    }

    /**
     * Reads the elements in {@code data} (position to limit), at most {@code count} items' worth, into their dense
     * run in {@code buf}.
     */
    void readDense(ByteBuffer data, Object buf, int offset, int count) {
        element.read(data, buf, firstElement(offset), Math.min(data.remaining() / element.bytes,
                count * map.size));
    }

    /**
     * Whether point-to-point transfers of this type pack into and land in {@link TransferBuffers}; types whose
     * bytes are not a fixed function of the count (objects, no data) say no and use their own buffers.
     */
    boolean lendsTransferBuffers() {
        return true;
    }

    /** {@link #receiveBuffer(Object, int, int)}, a room it needs taken from {@code scratch} (null: allocated). */
    ReceiveBuffer receiveBuffer(Object buf, int offset, int count, ScratchBuffer scratch) {
        return receiveBuffer(buf, offset, count, scratch, false);
    }

    private ReceiveBuffer receiveBuffer(Object buf, int offset, int count, ScratchBuffer scratch, boolean lend) {
        ByteBuffer inPlace = roomInPlace(buf, offset, count);
        if (inPlace != null) {
            // its users index the room from 0
            return ReceiveBuffer.inPlace(inPlace.position() == 0 ? inPlace : inPlace.slice());
        }
        int elementBytes = element.bytes;
        int n = count * map.size;
        ByteBuffer room = lend ? TransferBuffers.lend(n * elementBytes)
                : scratch == null ? ByteBuffer.allocate(n * elementBytes).order(ByteOrder.LITTLE_ENDIAN)
                : scratch.take(n * elementBytes);
        return ReceiveBuffer.unpacking(room, new Unpack(this, room, buf, offset, count, lend));
    }

    /**
     * Copies a completed receive from its room into the user's buffer. A class rather than a lambda, as
     * {@link dev.mpj.api.AllComplete} explains: as a lambda its linking took a third of a rank's first
     * interpreted alltoall.
     */
    private static final class Unpack implements ReceiveBuffer.Unpacker {
        private final Datatype type;
        private final ByteBuffer room;
        private final Object buf;
        private final int offset;
        private final int count;
        /** The room is lent by {@link TransferBuffers}: given back once unpacked. */
        private final boolean lent;

        Unpack(Datatype type, ByteBuffer room, Object buf, int offset, int count, boolean lent) {
            this.type = type;
            this.room = room;
            this.buf = buf;
            this.offset = offset;
            this.count = count;
            this.lent = lent;
        }

        @Override
        public void unpack(Operation completed, Status status) {
            // the room is this receive's own and the runtime writes it by index: it may be read in place
            ByteBuffer data = room.clear().limit(completed.byteCount());
            if (type.map.isContiguousFor(count)) {
                type.readDense(data, buf, offset, count);
            } else {
                type.unpackFrom(data, buf, offset, count);
            }
            if (lent) {
                TransferBuffers.giveBack(room);
            }
        }
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
