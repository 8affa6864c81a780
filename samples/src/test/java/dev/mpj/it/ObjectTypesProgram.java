package dev.mpj.it;

import java.util.Arrays;
import java.util.List;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;

/**
 * Derived datatypes over MPI.OBJECT across processes: a ring of point-to-point messages whose send and receive
 * types select different slots (larger than the eager threshold too), Sendrecv of a Struct, the collectives with
 * derived object types on one side and MPI.OBJECT on the other (placement by extents), a non-commutative user Op
 * over a Contiguous of objects, packed objects sent as MPI.PACKED, and the refused cases with their error class.
 */
public final class ObjectTypesProgram {
    private static Intracomm world;
    private static int rank;
    private static int size;

    private ObjectTypesProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.Rank();
        size = world.Size();
        ring(3);
        ring(20_000); // rendezvous sized
        structSendrecv();
        collectives();
        reduction();
        packed();
        refusals();
        world.Barrier();
        Check.done("objtypes");
        MPI.Finalize();
    }

    /** Rank r's object for slot i, of a size that grows with r. */
    private static Object o(int r, int i) {
        return List.of(r, i, "x".repeat(r * 7));
    }

    private static Datatype committed(Datatype type) {
        type.Commit();
        return type;
    }

    private static void same(Object[] expected, Object[] actual, String what) {
        Check.that(Arrays.deepEquals(expected, actual), what + ": expected " + Arrays.deepToString(expected)
                + " but was " + Arrays.deepToString(actual));
    }

    /** Every rank sends the even slots of {@code n} pairs to the right and receives them into the odd slots. */
    private static void ring(int n) {
        Datatype even = committed(Datatype.Vector(n, 1, 2, MPI.OBJECT));
        Datatype odd = committed(Datatype.Hindexed(new int[] {1}, new int[] {1}, even)); // one slot later
        Object[] send = new Object[2 * n];
        for (int i = 0; i < 2 * n; i++) {
            send[i] = i % 2 == 0 ? o(rank, i) : "keep";
        }
        int left = (rank + size - 1) % size;
        Object[] recv = new Object[2 * n + 1];
        Arrays.fill(recv, "keep");
        Status status = world.Sendrecv(send, 0, 1, even, (rank + 1) % size, 1, recv, 0, 1, odd, left, 1);
        Object[] expected = new Object[2 * n + 1];
        Arrays.fill(expected, "keep");
        for (int i = 0; i < n; i++) {
            expected[2 * i + 1] = o(left, 2 * i);
        }
        same(expected, recv, "ring of " + n);
        Check.equal(1, status.Get_count(odd), "items received");
        Check.equal(n, status.Get_elements(odd), "objects received");
    }

    /** A Struct of two objects swapped and spaced by an UB marker, to the next rank; received as MPI.OBJECT. */
    private static void structSendrecv() {
        Datatype swapped = committed(Datatype.Struct(new int[] {1, 1, 1}, new int[] {1, 0, 3},
                new Datatype[] {MPI.OBJECT, MPI.OBJECT, MPI.UB}));
        Object[] send = {o(rank, 0), o(rank, 1), "gap", o(rank, 3), o(rank, 4), "gap"};
        Object[] recv = new Object[4];
        int left = (rank + size - 1) % size;
        world.Sendrecv(send, 0, 2, swapped, (rank + 1) % size, 2, recv, 0, 4, MPI.OBJECT, left, 2);
        same(new Object[] {o(left, 1), o(left, 0), o(left, 4), o(left, 3)}, recv, "Struct of objects");
    }

    private static void collectives() {
        int root = size - 1;
        Datatype pair = committed(Datatype.Contiguous(2, MPI.OBJECT));
        Datatype spaced = committed(Datatype.Vector(2, 1, 2, MPI.OBJECT)); // slots 0 and 2, extent 3
        Object[] mine = {o(rank, 0), o(rank, 1)};

        Object[] b = rank == root ? new Object[] {o(root, 0), "skip", o(root, 2)} : new Object[] {null, "skip", null};
        world.Bcast(b, 0, 1, spaced, root);
        same(new Object[] {o(root, 0), "skip", o(root, 2)}, b, "Bcast of a Vector");

        Object[] gathered = new Object[3 * size];
        Object[] expected = new Object[3 * size];
        for (int r = 0; r < size; r++) {
            expected[3 * r] = o(r, 0);
            expected[3 * r + 2] = o(r, 1);
        }
        world.Gather(mine, 0, 1, pair, gathered, 0, 1, spaced, root);
        if (rank == root) {
            same(expected, gathered, "Gather into a Vector");
        }
        Object[] every = new Object[3 * size];
        world.Allgather(mine, 0, 2, MPI.OBJECT, every, 0, 1, spaced);
        same(expected, every, "Allgather into a Vector");

        Object[] back = new Object[2];
        world.Scatter(expected, 0, 1, spaced, back, 0, 1, pair, root);
        same(mine, back, "Scatter from a Vector");

        // rank r gets the pair of every rank j, sent from slots 3j and 3j + 2
        Object[] out = new Object[3 * size];
        for (int j = 0; j < size; j++) {
            out[3 * j] = o(rank, j);
            out[3 * j + 2] = o(rank, 100 + j);
        }
        Object[] in = new Object[2 * size];
        world.Alltoall(out, 0, 1, spaced, in, 0, 1, pair);
        Object[] inExpected = new Object[2 * size];
        for (int j = 0; j < size; j++) {
            inExpected[2 * j] = o(j, rank);
            inExpected[2 * j + 1] = o(j, 100 + rank);
        }
        same(inExpected, in, "Alltoall from a Vector");
    }

    /** A non-commutative user Op over a Contiguous of two objects: every object concatenated in rank order. */
    private static void reduction() {
        Datatype pair = committed(Datatype.Contiguous(2, MPI.OBJECT));
        Object[] mine = {"a" + rank, "b" + rank};
        Object[] all = new Object[2];
        world.Allreduce(mine, 0, all, 0, 1, pair, CollectivesProgram.CONCAT);
        StringBuilder a = new StringBuilder();
        StringBuilder bs = new StringBuilder();
        for (int r = 0; r < size; r++) {
            a.append('a').append(r);
            bs.append('b').append(r);
        }
        same(new Object[] {a.toString(), bs.toString()}, all, "Allreduce over a Contiguous of objects");
    }

    /** Rank 0 packs a header int and a Vector of objects; every other rank receives them as MPI.PACKED. */
    private static void packed() {
        Datatype spaced = committed(Datatype.Vector(2, 1, 2, MPI.OBJECT));
        byte[] bytes = new byte[4096];
        int[] length = new int[1];
        if (rank == 0) {
            int position = world.Pack(new int[] {42}, 0, 1, MPI.INT, bytes, 0);
            length[0] = world.Pack(new Object[] {o(0, 0), "skip", o(0, 2)}, 0, 1, spaced, bytes, position);
        }
        world.Bcast(length, 0, 1, MPI.INT, 0);
        world.Bcast(bytes, 0, length[0], MPI.PACKED, 0);
        int[] header = new int[1];
        Object[] objects = new Object[3];
        int end = world.Unpack(bytes, world.Unpack(bytes, 0, header, 0, 1, MPI.INT), objects, 0, 1, spaced);
        Check.equal(42, header[0], "packed header");
        Check.equal(length[0], end, "unpacked bytes");
        same(new Object[] {o(0, 0), null, o(0, 2)}, objects, "packed objects");
    }

    private static void refusals() {
        Check.raises(MPI.ERR_TYPE, () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1},
                new Datatype[] {MPI.OBJECT, MPI.DOUBLE}));
        Datatype pair = committed(Datatype.Contiguous(2, MPI.OBJECT));
        Check.raises(MPI.ERR_TYPE, () -> world.Send(new double[2], 0, 1, pair, (rank + 1) % size, 3));
        Check.raises(MPI.ERR_TYPE, () -> world.Pack_size(1, pair));
    }
}
