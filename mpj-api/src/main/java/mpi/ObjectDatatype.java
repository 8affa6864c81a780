package mpi;

import dev.mpj.api.ScratchBuffer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;

/**
 * {@link MPI#OBJECT} and the types derived from it: elements of an {@code Object[]} sent with Java
 * serialisation. A message is the count of objects followed by the objects, in the order the type map
 * visits their slots, in one {@link ObjectOutputStream}; the receiver cannot know its size in advance, so
 * it lets the runtime allocate the exact room and deserialises on completion into the slots its own type
 * selects. A derived type's map counts {@code Object[]} slots, as mpiJava 1.2 specifies.
 */
final class ObjectDatatype extends Datatype {
    /** The layout of {@link MPI#OBJECT} itself: one slot. */
    private static final Typemap ONE_SLOT = Typemap.contiguous(1);

    ObjectDatatype(String name) {
        super(name, null, 1);
    }

    /** A derived type of objects, uncommitted. */
    ObjectDatatype(String name, Typemap map) {
        super(name, null, map, false);
    }

    @Override
    boolean holdsData() {
        return true;
    }

    @Override
    boolean acceptsArray(Object buf) {
        return buf instanceof Object[];
    }

    @Override
    boolean acceptsByteBuffer() {
        return false;
    }

    @Override
    String bufferKind() {
        return "an Object[] of Serializable elements";
    }

    @Override
    int packedItemBytes() {
        return -1;
    }

    @Override
    ByteBuffer pack(Object buf, int offset, int count, boolean share, ScratchBuffer scratch) {
        return serialiseItems((Object[]) buf, offset, count);
    }

    /** The message of {@code count} consecutive objects from {@code offset}: their count, then the objects. */
    static ByteBuffer serialise(Object[] objects, int offset, int count) {
        return serialise(ONE_SLOT, objects, offset, count);
    }

    /** The message of the objects in the slots of {@code count} items of {@code map} from {@code offset}. */
    private static ByteBuffer serialise(Typemap map, Object[] objects, int offset, int count) {
        ExposedByteArrayOutputStream bytes = new ExposedByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeInt(count * map.size);
            Typemap.Cursor slots = map.cursor(offset, count, Long.MAX_VALUE);
            while (slots.next()) {
                for (int i = slots.index, end = slots.index + slots.length; i < end; i++) {
                    out.writeObject(objects[i]);
                }
            }
        } catch (NotSerializableException | InvalidClassException e) {
            throw new MPIException(MPI.ERR_TYPE, "MPI.OBJECT: cannot serialise " + e.getMessage(), e);
        } catch (IOException e) {
            throw new MPIException(MPI.ERR_OTHER, "MPI.OBJECT: serialisation failed: " + e, e);
        }
        return bytes.asByteBuffer();
    }

    /**
     * Packs the objects as a 4-byte length, then the message a send of them carries, so that {@link #unpackAt}
     * finds where they end.
     */
    @Override
    int packAt(String call, Object buf, int offset, int count, ByteBuffer outbuf, int position) {
        ByteBuffer message = serialiseItems((Object[]) buf, offset, count);
        int bytes = Integer.BYTES + message.remaining();
        checkPackedRange(call, outbuf, position, bytes, true);
        littleEndianFrom(outbuf, position).putInt(message.remaining()).put(message);
        return position + bytes;
    }

    @Override
    int unpackAt(String call, ByteBuffer inbuf, int position, Object buf, int offset, int count) {
        checkPackedRange(call, inbuf, position, Integer.BYTES, false);
        ByteBuffer in = littleEndianFrom(inbuf, position);
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": the bytes at position " + position + " are not packed "
                    + "objects: they claim " + length + " bytes, inbuf has " + in.remaining() + " more");
        }
        deserialiseItems(in.limit(in.position() + length), (Object[]) buf, offset, count);
        return position + Integer.BYTES + length;
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
        Object[] objects = (Object[]) buf;
        return ReceiveBuffer.unpacking(null, (completed, status) -> {
            ByteBuffer data = completed.buffer().duplicate();
            data.limit(data.position() + completed.byteCount());
            status.objectCount = deserialiseItems(data, objects, offset, count);
        });
    }

    /** Deserialises into {@code room} consecutive slots of {@code objects} from {@code offset}: see below. */
    static int deserialise(ByteBuffer data, Object[] objects, int offset, int room) {
        return deserialise(ONE_SLOT, data, objects, offset, room);
    }

    /** The message of the objects in the slots of {@code count} items of this type from {@code offset}. */
    ByteBuffer serialiseItems(Object[] objects, int offset, int count) {
        return serialise(map, objects, offset, count);
    }

    /** Deserialises into the slots of up to {@code count} items of this type from {@code offset}: see below. */
    int deserialiseItems(ByteBuffer data, Object[] objects, int offset, int count) {
        return deserialise(map, data, objects, offset, count);
    }

    /**
     * Deserialises the message in {@code data} (position to limit) into the slots of up to {@code count} items of
     * {@code map} in {@code objects} from {@code offset} (a last item may be partly filled), under the
     * {@link ObjectFilter}; returns the number of objects. {@code ERR_TRUNCATE} if more came than the items
     * hold, {@code ERR_OTHER} naming the class the filter refused.
     */
    private static int deserialise(Typemap map, ByteBuffer data, Object[] objects, int offset, int count) {
        ObjectFilter filter = ObjectFilter.forOneMessage();
        try (ObjectInputStream in = new ObjectInputStream(inputOf(data.duplicate()))) {
            in.setObjectInputFilter(filter);
            int sent = in.readInt();
            long room = (long) count * map.size;
            if (sent > room) {
                throw new MPIException(MPI.ERR_TRUNCATE, "message truncated: " + sent
                        + " objects received, room for " + room);
            }
            Typemap.Cursor slots = map.cursor(offset, count, sent);
            while (slots.next()) {
                for (int i = slots.index, end = slots.index + slots.length; i < end; i++) {
                    objects[i] = in.readObject();
                }
            }
            return sent;
        } catch (ArrayStoreException e) {
            throw new MPIException(MPI.ERR_TYPE, "MPI.OBJECT: received object does not fit the "
                    + objects.getClass().getSimpleName() + " buffer: " + e.getMessage(), e);
        } catch (InvalidClassException e) {
            if (filter.refused() != null) {
                throw new MPIException(MPI.ERR_OTHER, "MPI.OBJECT: refused to deserialise " + filter.refused()
                        + " (object filter; see " + ObjectFilter.PROPERTY + ")", e);
            }
            throw new MPIException(MPI.ERR_OTHER, "MPI.OBJECT: cannot deserialise the message: " + e, e);
        } catch (IOException | ClassNotFoundException e) {
            throw new MPIException(MPI.ERR_OTHER, "MPI.OBJECT: cannot deserialise the message: " + e, e);
        }
    }

    private static ByteArrayInputStream inputOf(ByteBuffer data) {
        if (data.hasArray()) {
            return new ByteArrayInputStream(data.array(), data.arrayOffset() + data.position(), data.remaining());
        }
        byte[] copy = new byte[data.remaining()];
        data.get(copy);
        return new ByteArrayInputStream(copy);
    }

    /** Whole items received: objects over the objects an item holds. */
    @Override
    int countIn(Status status) {
        int objects = objectsIn(status);
        if (objects == MPI.UNDEFINED || map.size == 1) {
            return objects;
        }
        if (map.size == 0) {
            return objects == 0 ? 0 : MPI.UNDEFINED;
        }
        return objects % map.size == 0 ? objects / map.size : MPI.UNDEFINED;
    }

    @Override
    int elementsIn(Status status) {
        return objectsIn(status);
    }

    /** Known once the message is deserialised; a probed message is not, so its count is undefined. */
    private static int objectsIn(Status status) {
        if (status.objectCount >= 0) {
            return status.objectCount;
        }
        return status.byteCount == 0 ? 0 : MPI.UNDEFINED;
    }

    /** Hands its array to a ByteBuffer without the copy {@code toByteArray} makes. */
    private static final class ExposedByteArrayOutputStream extends ByteArrayOutputStream {
        ExposedByteArrayOutputStream() {
            super(256);
        }

        ByteBuffer asByteBuffer() {
            return ByteBuffer.wrap(buf, 0, count);
        }
    }
}
