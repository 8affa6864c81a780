package mpi;

import dev.mpj.api.CommSpec;
import dev.mpj.api.MpiBackend;
import java.nio.ByteBuffer;

/**
 * The collectives over {@link MPI#OBJECT}. Each member's block is serialised as a point-to-point message of
 * objects is; since the sizes are known only then, the block lengths go first through an int collective, then
 * the bytes through the backend's v-variant. Reductions with a user {@link Op} gather the blocks at a root,
 * which combines them in rank order (so non-commutative operations get MPI's result) and sends the result on.
 */
final class ObjectCollectives {
    private ObjectCollectives() {
    }

    /** Whether a collective runs here: a significant datatype of the call is {@code MPI.OBJECT}. */
    static boolean involved(Datatype... types) {
        for (Datatype t : types) {
            if (t instanceof ObjectDatatype) {
                return true;
            }
        }
        return false;
    }

    static void bcast(String call, CommSpec spec, Object buf, int offset, int count, Datatype type, int root) {
        if (spec.rank() == root) {
            bcastBytes(spec, serialised(call, buf, offset, count, type), root);
        } else {
            checked(call, buf, offset, count, type, true);
            deserialised(bcastBytes(spec, null, root), buf, offset, count, type);
        }
    }

    /** Gather and Gatherv: {@code displs} null places member i's block at {@code i * counts[0]}. */
    static void gather(String call, CommSpec spec, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                       Object recvbuf, int recvoffset, int[] counts, int[] displs, Datatype recvtype, int root) {
        int me = spec.rank();
        if (me != root) {
            gatherBytes(spec, serialised(call, sendbuf, sendoffset, sendcount, sendtype), root);
            return;
        }
        int p = spec.size();
        ByteBuffer mine = ownBlock(call, me, p, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, counts,
                displs, recvtype);
        ByteBuffer[] blocks = gatherBytes(spec, mine, root);
        for (int i = 0; i < p; i++) {
            if (i != me || sendbuf != MPI.IN_PLACE) {
                deserialised(blocks[i], recvbuf, recvoffset + at(i, counts, displs, recvtype), count(i, counts),
                        recvtype);
            }
        }
    }

    /**
     * Checks every member's receive block, then serialises this member's own block: its send buffer, or with
     * {@code MPI.IN_PLACE} its block of the receive buffer.
     */
    private static ByteBuffer ownBlock(String call, int me, int p, Object sendbuf, int sendoffset, int sendcount,
                                       Datatype sendtype, Object recvbuf, int recvoffset, int[] counts, int[] displs,
                                       Datatype recvtype) {
        for (int i = 0; i < p; i++) {
            checked(call, recvbuf, recvoffset + at(i, counts, displs, recvtype), count(i, counts), recvtype, true);
        }
        return sendbuf == MPI.IN_PLACE
                ? serialised(call, recvbuf, recvoffset + at(me, counts, displs, recvtype), count(me, counts), recvtype)
                : serialised(call, sendbuf, sendoffset, sendcount, sendtype);
    }

    /** Allgather and Allgatherv, as {@link #gather} with the blocks at every member. */
    static void allgather(String call, CommSpec spec, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                          Object recvbuf, int recvoffset, int[] counts, int[] displs, Datatype recvtype) {
        int me = spec.rank();
        int p = spec.size();
        ByteBuffer mine = ownBlock(call, me, p, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, counts,
                displs, recvtype);
        ByteBuffer[] lengths = split(allLengths(spec, mine), p);
        ByteBuffer[] blocks = rooms(lengths);
        Environment.backend().allgatherv(spec, mine, blocks);
        for (int i = 0; i < p; i++) {
            if (i != me || sendbuf != MPI.IN_PLACE) {
                deserialised(blocks[i], recvbuf, recvoffset + at(i, counts, displs, recvtype), count(i, counts),
                        recvtype);
            }
        }
    }

    /** Scatter and Scatterv: the root's block i at {@code displs[i]} (or {@code i * counts[0]}) goes to member i. */
    static void scatter(String call, CommSpec spec, Object sendbuf, int sendoffset, int[] counts, int[] displs,
                        Datatype sendtype, Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        int me = spec.rank();
        boolean keep = me == root && recvbuf == MPI.IN_PLACE;
        if (!keep) {
            checked(call, recvbuf, recvoffset, recvcount, recvtype, true);
        }
        ByteBuffer[] blocks = null;
        if (me == root) {
            blocks = new ByteBuffer[spec.size()];
            for (int i = 0; i < blocks.length; i++) {
                blocks[i] = serialised(call, sendbuf, sendoffset + at(i, counts, displs, sendtype), count(i, counts),
                        sendtype);
            }
        }
        ByteBuffer mine = scatterBytes(spec, blocks, root);
        if (!keep) {
            deserialised(mine, recvbuf, recvoffset, recvcount, recvtype);
        }
    }

    /** Alltoall and Alltoallv; {@code sdispls}/{@code rdispls} null place block j at {@code j * counts[0]}. */
    static void alltoall(String call, CommSpec spec, Object sendbuf, int sendoffset, int[] sendcounts, int[] sdispls,
                         Datatype sendtype, Object recvbuf, int recvoffset, int[] recvcounts, int[] rdispls,
                         Datatype recvtype) {
        int p = spec.size();
        ByteBuffer[] send = new ByteBuffer[p];
        for (int j = 0; j < p; j++) {
            int recvAt = recvoffset + at(j, recvcounts, rdispls, recvtype);
            checked(call, recvbuf, recvAt, count(j, recvcounts), recvtype, true);
            send[j] = sendbuf == MPI.IN_PLACE
                    ? serialised(call, recvbuf, recvAt, count(j, recvcounts), recvtype)
                    : serialised(call, sendbuf, sendoffset + at(j, sendcounts, sdispls, sendtype), count(j, sendcounts),
                            sendtype);
        }
        ByteBuffer lengths = ByteBuffer.allocate(4 * p);
        for (ByteBuffer b : send) {
            lengths.putInt(b.remaining());
        }
        ByteBuffer theirs = ByteBuffer.allocate(4 * p);
        MpiBackend backend = Environment.backend();
        backend.alltoall(spec, lengths.flip(), theirs);
        ByteBuffer[] blocks = rooms(split(theirs, p));
        backend.alltoallv(spec, send, blocks);
        for (int i = 0; i < p; i++) {
            deserialised(blocks[i], recvbuf, recvoffset + at(i, recvcounts, rdispls, recvtype), count(i, recvcounts),
                    recvtype);
        }
    }

    // ---- reductions with a user Op, combined in rank order at a root ----

    static void reduce(String call, CommSpec spec, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
                       int count, Datatype type, Op op, int root) {
        User_function function = op.objectFunction(call);
        if (spec.rank() == root) {
            checked(call, recvbuf, recvoffset, count, type, true);
        }
        Object[] result = combined(call, spec, contribution(call, sendbuf, sendoffset, recvbuf, recvoffset, count,
                type), count * type.Size(), function, root);
        if (result != null) {
            deserialised(ObjectDatatype.serialise(result, 0, result.length), recvbuf, recvoffset, count, type);
        }
    }

    static void allreduce(String call, CommSpec spec, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
                          int count, Datatype type, Op op) {
        User_function function = op.objectFunction(call);
        checked(call, recvbuf, recvoffset, count, type, true);
        Object[] result = combined(call, spec, contribution(call, sendbuf, sendoffset, recvbuf, recvoffset, count,
                type), count * type.Size(), function, 0);
        ByteBuffer bytes = bcastBytes(spec, result == null ? null : ObjectDatatype.serialise(result, 0, result.length),
                0);
        deserialised(bytes, recvbuf, recvoffset, count, type);
    }

    static void reduceScatter(String call, CommSpec spec, Object sendbuf, int sendoffset, Object recvbuf,
                              int recvoffset, int[] recvcounts, int total, Datatype type, Op op) {
        User_function function = op.objectFunction(call);
        int me = spec.rank();
        checked(call, recvbuf, recvoffset, recvcounts[me], type, true);
        int size = type.Size();
        Object[] result = combined(call, spec, contribution(call, sendbuf, sendoffset, recvbuf, recvoffset, total,
                type), total * size, function, 0);
        ByteBuffer[] blocks = null;
        if (result != null) {
            blocks = new ByteBuffer[spec.size()];
            int from = 0;
            for (int i = 0; i < blocks.length; i++) {
                blocks[i] = ObjectDatatype.serialise(result, from, recvcounts[i] * size);
                from += recvcounts[i] * size;
            }
        }
        deserialised(scatterBytes(spec, blocks, 0), recvbuf, recvoffset, recvcounts[me], type);
    }

    /** Scan ({@code exclusive} false) and Exscan, whose member 0 keeps its receive buffer as it is. */
    static void scan(String call, CommSpec spec, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
                     int count, Datatype type, Op op, boolean exclusive) {
        User_function function = op.objectFunction(call);
        checked(call, recvbuf, recvoffset, count, type, true);
        ByteBuffer mine = contribution(call, sendbuf, sendoffset, recvbuf, recvoffset, count, type);
        ByteBuffer[] gathered = gatherBytes(spec, mine, 0);
        ByteBuffer[] prefixes = null;
        if (gathered != null) {
            int p = gathered.length;
            prefixes = new ByteBuffer[p];
            int n = count * type.Size();
            Object[] acc = objects(gathered[0], n);
            for (int i = 0; i < p; i++) {
                if (i > 0) {
                    acc = combine(function, acc, objects(gathered[i], n), n);
                }
                ByteBuffer prefix = ObjectDatatype.serialise(acc, 0, n);
                if (exclusive) {
                    if (i + 1 < p) {
                        prefixes[i + 1] = prefix;
                    }
                } else {
                    prefixes[i] = prefix;
                }
            }
            if (exclusive) {
                prefixes[0] = ByteBuffer.allocate(0);
            }
        }
        ByteBuffer result = scatterBytes(spec, prefixes, 0);
        if (result.hasRemaining()) {
            deserialised(result, recvbuf, recvoffset, count, type);
        }
    }

    /**
     * At the root, the members' blocks of {@code count} objects combined in rank order; null elsewhere. The
     * objects of a derived type's items are combined as one dense run of {@code MPI.OBJECT} elements.
     */
    private static Object[] combined(String call, CommSpec spec, ByteBuffer mine, int count, User_function function,
                                     int root) {
        ByteBuffer[] blocks = gatherBytes(spec, mine, root);
        if (blocks == null) {
            return null;
        }
        Object[] acc = objects(blocks[0], count);
        for (int i = 1; i < blocks.length; i++) {
            acc = combine(function, acc, objects(blocks[i], count), count);
        }
        return acc;
    }

    /** {@code lower op higher}: MPI calls the function with the lower-ranked operand as {@code invec}. */
    private static Object[] combine(User_function function, Object[] lower, Object[] higher, int count) {
        function.Call(lower, 0, higher, 0, count, MPI.OBJECT);
        return higher;
    }

    private static Object[] objects(ByteBuffer block, int count) {
        Object[] objects = new Object[count];
        ObjectDatatype.deserialise(block, objects, 0, count);
        return objects;
    }

    private static ByteBuffer contribution(String call, Object sendbuf, int sendoffset, Object recvbuf,
                                           int recvoffset, int count, Datatype type) {
        return sendbuf == MPI.IN_PLACE
                ? serialised(call, recvbuf, recvoffset, count, type)
                : serialised(call, sendbuf, sendoffset, count, type);
    }

    // ---- moving serialised blocks: lengths first, then the bytes ----

    private static ByteBuffer bcastBytes(CommSpec spec, ByteBuffer data, int root) {
        MpiBackend backend = Environment.backend();
        ByteBuffer length = ByteBuffer.allocate(4);
        if (data != null) {
            length.putInt(0, data.remaining());
        }
        backend.bcast(spec, length, root);
        ByteBuffer bytes = data != null ? data : ByteBuffer.allocate(length.getInt(0));
        backend.bcast(spec, bytes, root);
        return bytes;
    }

    /** At the root, every member's block in rank order; null elsewhere. */
    private static ByteBuffer[] gatherBytes(CommSpec spec, ByteBuffer mine, int root) {
        MpiBackend backend = Environment.backend();
        boolean atRoot = spec.rank() == root;
        ByteBuffer lengths = atRoot ? ByteBuffer.allocate(4 * spec.size()) : null;
        backend.gather(spec, lengthOf(mine), lengths, root);
        ByteBuffer[] blocks = atRoot ? rooms(split(lengths, spec.size())) : null;
        backend.gatherv(spec, mine, blocks, root);
        return blocks;
    }

    /** This member's block of the root's {@code blocks} (null except at the root). */
    private static ByteBuffer scatterBytes(CommSpec spec, ByteBuffer[] blocks, int root) {
        MpiBackend backend = Environment.backend();
        ByteBuffer lengths = null;
        if (blocks != null) {
            lengths = ByteBuffer.allocate(4 * blocks.length);
            for (ByteBuffer b : blocks) {
                lengths.putInt(b.remaining());
            }
            lengths.flip();
        }
        ByteBuffer length = ByteBuffer.allocate(4);
        backend.scatter(spec, lengths, length, root);
        ByteBuffer mine = ByteBuffer.allocate(length.getInt(0));
        backend.scatterv(spec, blocks, mine, root);
        return mine;
    }

    private static ByteBuffer allLengths(CommSpec spec, ByteBuffer mine) {
        ByteBuffer lengths = ByteBuffer.allocate(4 * spec.size());
        Environment.backend().allgather(spec, lengthOf(mine), lengths);
        return lengths;
    }

    private static ByteBuffer lengthOf(ByteBuffer block) {
        ByteBuffer length = ByteBuffer.allocate(4);
        length.putInt(0, block.remaining());
        return length;
    }

    /** The p lengths in {@code lengths} as p 4-byte views. */
    private static ByteBuffer[] split(ByteBuffer lengths, int p) {
        ByteBuffer[] each = new ByteBuffer[p];
        for (int i = 0; i < p; i++) {
            each[i] = ByteBuffer.allocate(4).putInt(0, lengths.getInt(4 * i));
        }
        return each;
    }

    private static ByteBuffer[] rooms(ByteBuffer[] lengths) {
        ByteBuffer[] rooms = new ByteBuffer[lengths.length];
        for (int i = 0; i < rooms.length; i++) {
            rooms[i] = ByteBuffer.allocate(lengths[i].getInt(0));
        }
        return rooms;
    }

    // ---- buffers ----

    /** The offset of block i, in slots: displacements count extents of {@code type}, as for primitives. */
    private static int at(int i, int[] counts, int[] displs, Datatype type) {
        return (displs == null ? i * counts[0] : displs[i]) * type.Extent();
    }

    private static int count(int i, int[] counts) {
        return counts.length == 1 ? counts[0] : counts[i];
    }

    private static ByteBuffer serialised(String call, Object buf, int offset, int count, Datatype type) {
        checked(call, buf, offset, count, type, false);
        return ((ObjectDatatype) type).serialiseItems((Object[]) buf, offset, count);
    }

    private static void checked(String call, Object buf, int offset, int count, Datatype type, boolean forReceive) {
        if (buf == MPI.IN_PLACE) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": MPI.IN_PLACE is not allowed here");
        }
        if (!(type instanceof ObjectDatatype)) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + type + " does not match MPI.OBJECT on the other side;"
                    + " a collective over objects needs MPI.OBJECT for every buffer");
        }
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, call + ": count must not be negative, was " + count);
        }
        type.checkBuffer(call, buf, offset, count, forReceive);
    }

    private static void deserialised(ByteBuffer bytes, Object buf, int offset, int count, Datatype type) {
        ((ObjectDatatype) type).deserialiseItems(bytes, (Object[]) buf, offset, count);
    }
}
