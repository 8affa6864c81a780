package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;

/**
 * {@link MPI#OBJECT}: elements of an {@code Object[]} sent with Java serialisation. A message is the
 * object count followed by the objects, in one {@link ObjectOutputStream}; the receiver cannot know
 * its size in advance, so it lets the runtime allocate the exact room and deserialises on completion.
 */
final class ObjectDatatype extends Datatype {
    ObjectDatatype(String name) {
        super(name, null, 1);
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
    ByteBuffer pack(Object buf, int offset, int count, boolean share) {
        return serialise((Object[]) buf, offset, count);
    }

    /** The message of {@code count} objects from {@code offset}: their count, then the objects. */
    static ByteBuffer serialise(Object[] objects, int offset, int count) {
        ExposedByteArrayOutputStream bytes = new ExposedByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeInt(count);
            for (int i = offset; i < offset + count; i++) {
                out.writeObject(objects[i]);
            }
        } catch (NotSerializableException | InvalidClassException e) {
            throw new MPIException(MPI.ERR_TYPE, "MPI.OBJECT: cannot serialise " + e.getMessage(), e);
        } catch (IOException e) {
            throw new MPIException(MPI.ERR_OTHER, "MPI.OBJECT: serialisation failed: " + e, e);
        }
        return bytes.asByteBuffer();
    }

    @Override
    ReceiveBuffer receiveBuffer(Object buf, int offset, int count) {
        Object[] objects = (Object[]) buf;
        return ReceiveBuffer.unpacking(null, (completed, status) -> {
            ByteBuffer data = completed.buffer().duplicate();
            data.limit(data.position() + completed.byteCount());
            status.objectCount = deserialise(data, objects, offset, count);
        });
    }

    /**
     * Deserialises the message in {@code data} (position to limit) into {@code objects} from {@code offset}, under
     * the {@link ObjectFilter}; returns the number of objects. {@code ERR_TRUNCATE} if more than {@code room} came,
     * {@code ERR_OTHER} naming the class the filter refused.
     */
    static int deserialise(ByteBuffer data, Object[] objects, int offset, int room) {
        ObjectFilter filter = ObjectFilter.forOneMessage();
        try (ObjectInputStream in = new ObjectInputStream(inputOf(data.duplicate()))) {
            in.setObjectInputFilter(filter);
            int sent = in.readInt();
            if (sent > room) {
                throw new MPIException(MPI.ERR_TRUNCATE, "message truncated: " + sent
                        + " objects received, room for " + room);
            }
            for (int i = 0; i < sent; i++) {
                objects[offset + i] = in.readObject();
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

    @Override
    int countIn(Status status) {
        return objectsIn(status);
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
