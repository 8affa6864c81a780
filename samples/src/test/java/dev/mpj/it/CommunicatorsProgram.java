package dev.mpj.it;

import java.util.Arrays;
import mpi.CartParms;
import mpi.Cartcomm;
import mpi.Comm;
import mpi.Datatype;
import mpi.GraphParms;
import mpi.Graphcomm;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.ShiftParms;
import mpi.Status;

/**
 * Communicators, groups and topologies across processes: Split, Create, clone, Dup and Free, Attr_get,
 * messages of zero-size types, point-to-point
 * and collectives inside the new communicators, isolation of communicators that share processes and
 * tags, Cartesian grids with shifts and sub-grids, a graph, and argument errors. Each rank checks its
 * own results.
 */
public final class CommunicatorsProgram {
    private static final int TAG = 5;
    private static Intracomm world;
    private static int rank;
    private static int size;

    private CommunicatorsProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.Rank();
        size = world.Size();
        splitEvenAndOdd();
        splitReversedByKey();
        splitLeavingOneOut();
        duplicatesAreIsolated();
        contextsAgreeWhenMembersHoldDifferentOnes();
        createFromGroups();
        cartesianGrid();
        cartesianGridSmallerThanTheCommunicator();
        graphRing();
        freedContextsAreReused();
        dupAndAttributes();
        zeroSizeMessages();
        errors();
        world.Barrier();
        Check.done("communicators");
        MPI.Finalize();
    }

    /** Sum of the world ranks r in [0, size) with r % 2 == parity. */
    private static int sumOfParity(int parity) {
        int sum = 0;
        for (int r = parity; r < size; r += 2) {
            sum += r;
        }
        return sum;
    }

    private static int allreduceSum(Intracomm comm, int value) {
        int[] sum = new int[1];
        comm.Allreduce(new int[] {value}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        return sum[0];
    }

    /** Passes world ranks one step around the communicator's ring; returns what came from the left. */
    private static int ringShift(Intracomm comm) {
        int n = comm.Size();
        int me = comm.Rank();
        int[] got = new int[1];
        comm.Sendrecv(new int[] {rank}, 0, 1, MPI.INT, (me + 1) % n, TAG, got, 0, 1, MPI.INT, (me + n - 1) % n, TAG);
        return got[0];
    }

    static void splitEvenAndOdd() {
        Intracomm half = world.Split(rank % 2, rank);
        Check.equal((size - rank % 2 + 1) / 2, half.Size(), "size of the parity communicator");
        Check.equal(rank / 2, half.Rank(), "rank in the parity communicator");
        int left = (half.Rank() + half.Size() - 1) % half.Size();
        Check.equal(2 * left + rank % 2, ringShift(half), "ring neighbour in the parity communicator");
        Check.equal(sumOfParity(rank % 2), allreduceSum(half, rank), "Allreduce in the parity communicator");
        half.Free();
    }

    static void splitReversedByKey() {
        Intracomm reversed = world.Split(0, size - rank);
        Check.equal(size - 1 - rank, reversed.Rank(), "rank ordered by a reversed key");
        int[] root = {rank};
        reversed.Bcast(root, 0, 1, MPI.INT, 0);
        Check.equal(size - 1, root[0], "Bcast from rank 0 of the reversed communicator");
        int[] inWorld = Group.Translate_ranks(reversed.Group(), new int[] {0, size - 1}, world.Group());
        Check.that(Arrays.equals(new int[] {size - 1, 0}, inWorld), "Translate_ranks gave " + Arrays.toString(inWorld));
        Check.equal(size == 1 ? MPI.CONGRUENT : MPI.SIMILAR, Comm.Compare(world, reversed), "Compare with WORLD");
        reversed.Free();
    }

    static void splitLeavingOneOut() {
        Intracomm rest = world.Split(rank == 0 ? MPI.UNDEFINED : 1, 0);
        if (rank == 0) {
            Check.that(rest == MPI.COMM_NULL, "rank 0 gave MPI.UNDEFINED but got a communicator");
            return;
        }
        Check.equal(size - 1, rest.Size(), "size without rank 0");
        Check.equal(rank - 1, rest.Rank(), "rank without rank 0");
        Check.equal(size * (size - 1) / 2, allreduceSum(rest, rank), "Allreduce without rank 0");
        rest.Free();
    }

    /**
     * A duplicate of WORLD and WORLD itself, both with receives from any source on the same tag posted
     * before any message is sent, and the duplicate's message sent first: had the two shared a context,
     * WORLD's receive (posted first) would take the duplicate's message.
     */
    static void duplicatesAreIsolated() {
        Intracomm copy = (Intracomm) world.clone();
        Check.equal(MPI.CONGRUENT, Comm.Compare(world, copy), "Compare WORLD with its duplicate");
        for (int round = 0; round < 20; round++) {
            int[] fromWorld = new int[1];
            int[] fromCopy = new int[1];
            Request inWorld = world.Irecv(fromWorld, 0, 1, MPI.INT, MPI.ANY_SOURCE, TAG);
            Request inCopy = copy.Irecv(fromCopy, 0, 1, MPI.INT, MPI.ANY_SOURCE, TAG);
            int next = (rank + 1) % size;
            Request toCopy = copy.Isend(new int[] {-1 - rank}, 0, 1, MPI.INT, next, TAG);
            Request toWorld = world.Isend(new int[] {rank}, 0, 1, MPI.INT, next, TAG);
            Status[] done = Request.Waitall(new Request[] {inWorld, inCopy, toCopy, toWorld});
            int previous = (rank + size - 1) % size;
            Check.equal(previous, fromWorld[0], "WORLD's message on WORLD, round " + round);
            Check.equal(-1 - previous, fromCopy[0], "the duplicate's message on the duplicate, round " + round);
            Check.equal(previous, done[1].source, "source on the duplicate");
        }
        // collectives on both, interleaved
        Check.equal(size * (size - 1) / 2, allreduceSum(copy, rank), "Allreduce on the duplicate");
        Check.equal(size, allreduceSum(world, 1), "Allreduce on WORLD");
        copy.Free();
    }

    /**
     * Odd ranks hold an extra communicator (a duplicate of theirs), so the members of WORLD have different
     * context ids in use; a duplicate of WORLD made afterwards must avoid all of them and stay apart from
     * the odd ranks' communicator while both carry the same tag.
     */
    static void contextsAgreeWhenMembersHoldDifferentOnes() {
        Intracomm parity = world.Split(rank % 2, rank);
        Intracomm extra = rank % 2 == 1 ? (Intracomm) parity.clone() : null;
        Intracomm copy = (Intracomm) world.clone();
        int next = (rank + 1) % size;
        int previous = (rank + size - 1) % size;
        int[] fromCopy = new int[1];
        int[] fromExtra = new int[1];
        Request inCopy = copy.Irecv(fromCopy, 0, 1, MPI.INT, MPI.ANY_SOURCE, TAG);
        Request inExtra = extra == null ? MPI.REQUEST_NULL : extra.Irecv(fromExtra, 0, 1, MPI.INT, MPI.ANY_SOURCE, TAG);
        Request toExtra = MPI.REQUEST_NULL;
        if (extra != null) {
            int n = extra.Size();
            toExtra = extra.Isend(new int[] {1000 + rank}, 0, 1, MPI.INT, (extra.Rank() + 1) % n, TAG);
        }
        Request toCopy = copy.Isend(new int[] {rank}, 0, 1, MPI.INT, next, TAG);
        Request.Waitall(new Request[] {inCopy, inExtra, toExtra, toCopy});
        Check.equal(previous, fromCopy[0], "message on the new duplicate of WORLD");
        if (extra != null) {
            int n = extra.Size();
            int leftInParity = (extra.Rank() + n - 1) % n;
            Check.equal(1000 + 2 * leftInParity + 1, fromExtra[0], "message on the odd ranks' communicator");
            extra.Free();
        }
        copy.Free();
        parity.Free();
    }

    static void createFromGroups() {
        Group all = world.Group();
        Check.equal(rank, all.Rank(), "rank in WORLD's group");
        Group evens = all.Range_incl(new int[][] {{0, size - 1, 2}});
        Group odds = Group.Difference(all, evens);
        Check.equal(size, Group.Union(evens, odds).Size(), "evens and odds make WORLD");
        Check.equal(0, Group.Intersection(evens, odds).Size(), "evens and odds do not meet");
        Check.equal(rank % 2 == 0 ? rank / 2 : MPI.UNDEFINED, evens.Rank(), "rank in the even group");

        Intracomm even = world.Create(evens);
        if (rank % 2 == 1) {
            Check.that(even == null, "odd rank " + rank + " got a communicator from the even group");
        } else {
            Check.equal(evens.Size(), even.Size(), "size of the even communicator");
            Check.equal(rank / 2, even.Rank(), "rank in the even communicator");
            Check.equal(sumOfParity(0), allreduceSum(even, rank), "Allreduce in the even communicator");
            Check.equal(size == 1 ? MPI.CONGRUENT : MPI.UNEQUAL, Comm.Compare(even, world), "Compare evens with WORLD");
            even.Free();
        }

        // the group in reverse, ranked as the group says
        Group backwards = all.Incl(reversedRanks());
        Intracomm reversed = world.Create(backwards);
        Check.equal(size - 1 - rank, reversed.Rank(), "rank in the communicator of the reversed group");
        Check.equal((rank + 1) % size, ringShift(reversed), "ring neighbour in the reversed communicator");
        Check.equal(size == 1 ? MPI.IDENT : MPI.SIMILAR, Group.Compare(all, backwards), "Group.Compare with reversed");
        Check.equal(size == 1 ? MPI.CONGRUENT : MPI.SIMILAR, Comm.Compare(world, reversed), "Compare with reversed");
        reversed.Free();
        evens.free();
        all.free();
    }

    private static int[] reversedRanks() {
        int[] ranks = new int[size];
        for (int i = 0; i < size; i++) {
            ranks[i] = size - 1 - i;
        }
        return ranks;
    }

    /** A 3D grid from Dims_create, periodic in the first and last dimensions, over every process. */
    static void cartesianGrid() {
        int[] dims = new int[3];
        Cartcomm.Dims_create(size, dims);
        Check.equal(size, (long) dims[0] * dims[1] * dims[2], "Dims_create product");
        boolean[] periods = {true, false, true};
        Cartcomm grid = world.Create_cart(dims, periods, false);
        Check.equal(MPI.CART, grid.Topo_test(), "Topo_test of a Cartesian communicator");
        CartParms parms = grid.Get();
        Check.that(Arrays.equals(dims, parms.dims), "Get dims " + Arrays.toString(parms.dims));
        Check.that(Arrays.equals(grid.Coords(grid.Rank()), parms.coords), "Get coords are Coords(Rank())");
        Check.equal(grid.Rank(), grid.Rank(parms.coords), "Rank(Coords(r)) == r");

        for (int d = 0; d < 3; d++) {
            ShiftParms shift = grid.Shift(d, 1);
            Check.equal(expectedNeighbour(grid, parms, d, 1), shift.rank_dest, "Shift dest along " + d);
            Check.equal(expectedNeighbour(grid, parms, d, -1), shift.rank_source, "Shift source along " + d);
            int[] got = {-7};
            Status status = grid.Sendrecv(new int[] {grid.Rank()}, 0, 1, MPI.INT, shift.rank_dest, TAG,
                    got, 0, 1, MPI.INT, shift.rank_source, TAG);
            if (shift.rank_source == MPI.PROC_NULL) {
                Check.equal(MPI.PROC_NULL, status.source, "receive from PROC_NULL at the edge along " + d);
                Check.equal(-7, got[0], "nothing received from PROC_NULL");
            } else {
                Check.equal(shift.rank_source, got[0], "value shifted along " + d);
            }

            // the line through this process along d: an Allreduce over it sums the ranks on the line
            boolean[] keep = new boolean[3];
            keep[d] = true;
            Cartcomm line = grid.Sub(keep);
            Check.equal(dims[d], line.Size(), "size of the line along " + d);
            Check.equal(parms.coords[d], line.Rank(), "rank on the line along " + d);
            Check.that(line.Get().periods[0] == periods[d], "line keeps the periodicity of dimension " + d);
            int expected = 0;
            int[] at = parms.coords.clone();
            for (int k = 0; k < dims[d]; k++) {
                at[d] = k;
                expected += grid.Rank(at);
            }
            Check.equal(expected, allreduceSum(line, grid.Rank()), "Allreduce along the line in dimension " + d);
            line.Free();
        }
        Cartcomm plane = grid.Sub(new boolean[] {true, false, true});
        Check.equal((long) dims[0] * dims[2], plane.Size(), "size of the plane");
        Check.equal(parms.coords[0] * dims[2] + parms.coords[2], plane.Rank(), "rank in the plane");
        plane.Free();
        Cartcomm copy = (Cartcomm) grid.clone();
        Check.that(Arrays.equals(parms.coords, copy.Get().coords), "a duplicate keeps the grid");
        copy.Free();
        grid.Free();
    }

    /** The rank disp steps along d, worked out from the coordinates alone. */
    private static int expectedNeighbour(Cartcomm grid, CartParms parms, int d, int disp) {
        int[] at = parms.coords.clone();
        at[d] += disp;
        if (at[d] < 0 || at[d] >= parms.dims[d]) {
            if (!parms.periods[d]) {
                return MPI.PROC_NULL;
            }
            at[d] = Math.floorMod(at[d], parms.dims[d]);
        }
        return grid.Rank(at);
    }

    static void cartesianGridSmallerThanTheCommunicator() {
        int n = Math.max(1, size - 1);
        Cartcomm line = world.Create_cart(new int[] {n}, new boolean[] {false}, true);
        Cartcomm single = world.Create_cart(new int[] {1}, new boolean[1], false);
        Check.that((single != null) == (rank == 0), "a one-process grid holds rank 0 only");
        if (single != null) {
            single.Free();
        }
        if (rank >= n) {
            Check.that(line == null, "rank " + rank + " outside the grid got a communicator");
            return;
        }
        Check.equal(n, line.Size(), "size of a grid smaller than WORLD");
        Check.equal(n * (n - 1) / 2, allreduceSum(line, rank), "Allreduce in a grid smaller than WORLD");
        line.Free();
    }

    /** A ring as a graph: node i's neighbours are i-1 and i+1. */
    static void graphRing() {
        int[] index = new int[size];
        int[] edges = new int[2 * size];
        for (int i = 0; i < size; i++) {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i + size - 1) % size;
            edges[2 * i + 1] = (i + 1) % size;
        }
        Graphcomm ring = world.Create_graph(index, edges, false);
        Check.equal(MPI.GRAPH, ring.Topo_test(), "Topo_test of a graph communicator");
        GraphParms parms = ring.Get();
        Check.that(Arrays.equals(index, parms.index) && Arrays.equals(edges, parms.edges), "Get returns the graph");
        int[] neighbours = ring.Neighbours(rank);
        Check.that(Arrays.equals(new int[] {(rank + size - 1) % size, (rank + 1) % size}, neighbours),
                "Neighbours " + Arrays.toString(neighbours));
        int[] got = new int[2];
        Request[] requests = {
                ring.Irecv(got, 0, 1, MPI.INT, neighbours[0], TAG),
                ring.Irecv(got, 1, 1, MPI.INT, neighbours[1], TAG + 1),
                ring.Isend(new int[] {rank}, 0, 1, MPI.INT, neighbours[1], TAG),
                ring.Isend(new int[] {rank}, 0, 1, MPI.INT, neighbours[0], TAG + 1)};
        Request.Waitall(requests);
        Check.that(got[0] == neighbours[0] && got[1] == neighbours[1], "exchange with graph neighbours "
                + Arrays.toString(got));
        ring.Free();
    }

    /** Many communicators made and freed in turn: every member frees its ids and all agree again. */
    static void freedContextsAreReused() {
        for (int i = 0; i < 20; i++) {
            int colour = i % 3 == rank % 3 ? 0 : 1;
            Intracomm c = world.Split(colour, -rank);
            int members = 0;
            int above = 0;
            for (int r = 0; r < size; r++) {
                if ((i % 3 == r % 3 ? 0 : 1) == colour) {
                    members++;
                    above += r > rank ? 1 : 0;
                }
            }
            Check.equal(members, c.Size(), "size of communicator " + i);
            Check.equal(above, c.Rank(), "rank by descending key in communicator " + i);
            Check.equal(members, allreduceSum(c, 1), "Allreduce in communicator " + i);
            c.Free();
        }
    }

    /** Dup, like clone, is isolated from WORLD; Attr_get answers the predefined keys on every communicator. */
    static void dupAndAttributes() {
        Intracomm copy = world.Dup();
        Intracomm self = MPI.COMM_SELF.Dup();
        Check.equal(MPI.CONGRUENT, Comm.Compare(world, copy), "Compare WORLD with its Dup");
        Check.equal(1, self.Size(), "size of COMM_SELF's Dup");
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        Request onCopy = copy.Isend(new int[] {rank + 100}, 0, 1, MPI.INT, right, TAG);
        Request onWorld = world.Isend(new int[] {rank}, 0, 1, MPI.INT, right, TAG);
        int[] fromWorld = new int[1];
        int[] fromCopy = new int[1];
        world.Recv(fromWorld, 0, 1, MPI.INT, left, TAG);
        copy.Recv(fromCopy, 0, 1, MPI.INT, left, TAG);
        Request.Waitall(new Request[] {onCopy, onWorld});
        Check.equal(left, fromWorld[0], "WORLD's message with the tag both communicators used");
        Check.equal(left + 100, fromCopy[0], "the Dup's message with the tag both communicators used");
        for (Comm comm : new Comm[] {world, copy, self, MPI.COMM_SELF}) {
            Check.equal(MPI.TAG_UB, comm.Attr_get(MPI.TAG_UB), "Attr_get(TAG_UB) on " + comm);
            Check.equal(MPI.PROC_NULL, comm.Attr_get(MPI.HOST), "Attr_get(HOST) on " + comm);
            Check.equal(MPI.ANY_SOURCE, comm.Attr_get(MPI.IO), "Attr_get(IO) on " + comm);
            Check.equal(0, comm.Attr_get(MPI.WTIME_IS_GLOBAL), "Attr_get(WTIME_IS_GLOBAL) on " + comm);
        }
        int[] top = new int[1];
        int tagUb = copy.Attr_get(MPI.TAG_UB);
        copy.Sendrecv(new int[] {rank}, 0, 1, MPI.INT, right, tagUb, top, 0, 1, MPI.INT, left, tagUb);
        Check.equal(left, top[0], "a message with the tag Attr_get(TAG_UB) gave");
        self.Free();
        copy.Free();
    }

    /** Messages of types of no data still match, in order, and count 0 items. */
    static void zeroSizeMessages() {
        Datatype empty = Datatype.Struct(new int[0], new int[0], new Datatype[0]);
        empty.Commit();
        Datatype none = Datatype.Contiguous(0, MPI.INT);
        none.Commit();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        int[] untouched = {-1};
        Status status = world.Sendrecv(new int[] {rank}, 0, 3, empty, right, TAG, untouched, 0, 3, empty, left, TAG);
        Check.equal(0, status.Get_count(empty), "Get_count of a message of an empty Struct");
        Check.equal(left, status.source, "source of a message of an empty Struct");
        Check.equal(-1, untouched[0], "the receive buffer of an empty message");
        // an empty message and then a real one on the same tag: they arrive in order
        int[] data = new int[1];
        Request[] requests = {
            world.Irecv(untouched, 0, 1, none, left, TAG),
            world.Irecv(data, 0, 1, MPI.INT, left, TAG),
            world.Isend(new int[0], 0, 4, none, right, TAG),
            world.Isend(new int[] {rank}, 0, 1, MPI.INT, right, TAG)};
        Status[] done = Request.Waitall(requests);
        Check.equal(0, done[0].Get_count(none), "Get_count of a message of Contiguous(0)");
        Check.equal(1, done[1].Get_count(MPI.INT), "Get_count of the message after it");
        Check.equal(left, data[0], "the message after the empty one");
        Check.equal(0, Request.Waitsome(requests).length, "Waitsome over completed requests");
        empty.free();
        none.free();
    }

    static void errors() {
        Check.raises(MPI.ERR_ARG, "a negative colour on every rank", () -> world.Split(-2, 0));
        int mine = rank == size - 1 ? -2 : 0;
        Check.raises(MPI.ERR_ARG, "a negative colour on one rank", () -> world.Split(mine, 0));
        Check.raises(MPI.ERR_ARG, "a grid larger than WORLD", () -> world.Create_cart(new int[] {size + 1}, new boolean[1], false));
        Check.raises(MPI.ERR_DIMS, "Dims_create that cannot divide", () -> Cartcomm.Dims_create(size * 2 + 1, new int[] {2, 0}));
        Check.raises(MPI.ERR_RANK, "Incl of a rank outside the group", () -> world.Group().Incl(new int[] {size}));
        Check.raises(MPI.ERR_GROUP, "Create with a freed group", () -> {
            Group g = world.Group();
            g.free();
            world.Create(g);
        });
        Intracomm copy = (Intracomm) world.clone();
        copy.Free();
        Check.raises(MPI.ERR_COMM, "a freed communicator", copy::Barrier);
        Check.raises(MPI.ERR_ARG, "freeing WORLD", world::Free);
        Check.raises(MPI.ERR_ARG, "freeing MPI.INT", MPI.INT::free);
        Check.raises(MPI.ERR_ARG, "freeing MPI.SUM", MPI.SUM::free);
        // WORLD still works after all of these
        Check.equal(size, allreduceSum(world, 1), "Allreduce after the errors");
    }
}
