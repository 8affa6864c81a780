package mpi;

import dev.mpj.api.AllComplete;
import dev.mpj.api.CommSpec;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.Reduction;
import dev.mpj.api.ScratchBuffer;
import dev.mpj.api.SendMode;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A communicator within one group of processes; the home of collective operations.
 *
 * <p>Every member must call the same collectives in the same order with matching counts. Counts,
 * offsets and displacements are in items of the datatype, as in point-to-point calls; displacements
 * are multiples of the datatype's extent from the buffer offset. {@link MPI#IN_PLACE} may replace the
 * send buffer of {@code Gather}/{@code Gatherv} at the root, {@code Allgather}, {@code Allgatherv},
 * {@code Alltoall}, {@code Alltoallv}, {@code Reduce} at the root, {@code Allreduce},
 * {@code Reduce_scatter}, {@code Scan} and {@code Exscan}, and the root's receive buffer of
 * {@code Scatter}/{@code Scatterv}.
 *
 * <p>Errors, besides those of point-to-point calls ({@code ERR_BUFFER}, {@code ERR_TYPE},
 * {@code ERR_COUNT}): {@code ERR_ROOT} for a root outside the communicator, {@code ERR_OP} for an
 * operation not defined on the datatype, {@code ERR_ARG} for a missing or short counts or
 * displacements array, {@code ERR_BUFFER} for {@code MPI.IN_PLACE} where it is not allowed, and
 * {@code ERR_COUNT} or {@code ERR_TRUNCATE} when a member's block does not have the size expected.
 * {@code MPI.OBJECT} works in every collective, each block serialised as a point-to-point message is (both sides
 * of a call must use {@code MPI.OBJECT}, else {@code ERR_TYPE}); reductions over it take user {@link Op}s only
 * ({@code ERR_OP} otherwise), which combine the members' objects in rank order.
 *
 * <p>An error one member raises in a collective reaches the others: it revokes the communicator's collectives,
 * so every member still in that collective, and every later collective on the communicator, raises
 * {@code ERR_REVOKED} naming the member and its error. A member whose part of the collective was over (a sender
 * of a gather, say) learns it at its next collective on the communicator. Point-to-point calls are unaffected.
 */
public class Intracomm extends Comm {
    Intracomm(String name) {
        super(name);
    }

    // ---- new communicators: collective over this one, each with its own context ----

    /**
     * Splits the communicator into one new communicator per {@code colour}: the members that gave the
     * same colour, ranked by {@code key} and then by their rank here. A member giving
     * {@link MPI#UNDEFINED} gets {@code null} ({@link MPI#COMM_NULL}). Every member must call it; a
     * negative colour other than {@code UNDEFINED} raises {@code ERR_ARG} in every member.
     */
    public Intracomm Split(int colour, int key) {
        String call = "Split";
        CommSpec spec = spec();
        int p = spec.size();
        int[] everyone = new int[2 * p];
        Allgather(new int[] {colour, key}, 0, 2, MPI.INT, everyone, 0, 2, MPI.INT);
        // checked once everyone's colour is known, so that all members raise the error, none waits
        for (int r = 0; r < p; r++) {
            int c = everyone[2 * r];
            if (c < 0 && c != MPI.UNDEFINED) {
                throw new MPIException(MPI.ERR_ARG, call + ": rank " + r + " of " + this + " gave colour " + c
                        + "; colours must be non-negative or MPI.UNDEFINED");
            }
        }
        int pair = agreeOnContextPair(call, colour != MPI.UNDEFINED);
        if (colour == MPI.UNDEFINED) {
            return null;
        }
        // (key, rank) in one long sorts by key, then rank
        long[] order = new long[p];
        int n = 0;
        for (int r = 0; r < p; r++) {
            if (everyone[2 * r] == colour) {
                order[n++] = ((long) everyone[2 * r + 1] << 32) | r;
            }
        }
        Arrays.sort(order, 0, n);
        int[] members = new int[n];
        int newRank = -1;
        for (int i = 0; i < n; i++) {
            int r = (int) order[i];
            members[i] = spec.worldRanks()[r];
            if (r == spec.rank()) {
                newRank = i;
            }
        }
        return bound(new Intracomm(this + ".Split(" + colour + ")"), pair, members, newRank);
    }

    /**
     * A communicator of the members of {@code group}, a subset of this communicator, ranked as in the
     * group; {@code null} ({@link MPI#COMM_NULL}) for the processes outside it. Every member must call
     * it with the same group. {@code ERR_GROUP} for a null or freed group, or one with a process
     * outside this communicator.
     */
    public Intracomm Create(Group group) {
        String call = "Create";
        CommSpec spec = spec();
        if (group == null) {
            throw new MPIException(MPI.ERR_GROUP, call + ": group is null");
        }
        int[] members = group.usableMembers(call);
        for (int w : members) {
            if (toCommRank(w) == MPI.UNDEFINED) {
                throw new MPIException(MPI.ERR_GROUP, call + ": the group holds world rank " + w
                        + ", which is not a member of " + this);
            }
        }
        int newRank = group.rankOf(spec.worldRanks()[spec.rank()]);
        int pair = agreeOnContextPair(call, newRank != MPI.UNDEFINED);
        if (newRank == MPI.UNDEFINED) {
            return null;
        }
        return bound(new Intracomm(this + ".Create(group)"), pair, members.clone(), newRank);
    }

    /** {@inheritDoc} Returns an {@link Intracomm} (a {@link Cartcomm} or {@link Graphcomm} for those). */
    @Override
    public Object clone() {
        return duplicate("clone");
    }

    /** {@link #clone} under MPI's name: a {@link Cartcomm} or {@link Graphcomm} for those. */
    @Override
    public Intracomm Dup() {
        return duplicate("Dup");
    }

    private Intracomm duplicate(String call) {
        CommSpec spec = spec();
        int pair = agreeOnContextPair(call, true);
        return bound(sameKind(this + "." + call + "()"), pair, spec.worldRanks(), spec.rank());
    }

    /** An unbound communicator of this one's class and topology, for {@link #clone}. */
    Intracomm sameKind(String name) {
        return new Intracomm(name);
    }

    /**
     * A communicator with a Cartesian grid topology of extents {@code dims}, periodic where
     * {@code periods} says so: the first {@code dims[0] * dims[1] * ...} members in rank order, laid out
     * row-major (ranks are kept whatever {@code reorder} says, as in MPICH); the other members get
     * {@code null}. {@code ERR_ARG} for a missing array, arrays of different lengths or a grid larger than the
     * communicator, {@code ERR_DIMS} for an extent below 1.
     */
    public Cartcomm Create_cart(int[] dims, boolean[] periods, boolean reorder) {
        String call = "Create_cart";
        CommSpec spec = spec();
        CartTopology grid = CartTopology.of(call, dims, periods);
        if (grid.size() > spec.size()) {
            throw new MPIException(MPI.ERR_ARG, call + ": the grid " + Arrays.toString(dims) + " needs "
                    + grid.size() + " processes but " + this + " has " + spec.size());
        }
        return firstMembers(call, new Cartcomm(this + ".Create_cart", grid), grid.size());
    }

    /**
     * A communicator with a graph topology: node i's neighbours are {@code edges[index[i-1]]} up to
     * {@code edges[index[i] - 1]} ({@code index[-1]} being 0), for the first {@code index.length}
     * members in rank order (kept whatever {@code reorder} says); the other members get {@code null}.
     * {@code ERR_ARG} for missing or inconsistent arrays, a node outside the graph, or a graph larger
     * than the communicator.
     */
    public Graphcomm Create_graph(int[] index, int[] edges, boolean reorder) {
        String call = "Create_graph";
        CommSpec spec = spec();
        GraphTopology graph = GraphTopology.of(call, index, edges);
        if (graph.size() > spec.size()) {
            throw new MPIException(MPI.ERR_ARG, call + ": the graph has " + graph.size() + " nodes but " + this
                    + " has " + spec.size() + " processes");
        }
        return firstMembers(call, new Graphcomm(this + ".Create_graph", graph), graph.size());
    }

    /** Binds {@code comm} to the first {@code n} members of this communicator; null for the others. */
    private <C extends Intracomm> C firstMembers(String call, C comm, int n) {
        CommSpec spec = spec();
        int pair = agreeOnContextPair(call, spec.rank() < n);
        if (spec.rank() >= n) {
            return null;
        }
        return bound(comm, pair, Arrays.copyOf(spec.worldRanks(), n), spec.rank());
    }

    /**
     * The lowest context pair free in every member of this communicator, reserved in this process when it is a
     * {@code member} of the new communicator: the members AND their bitmaps together (MPICH's scheme, see
     * {@link ContextIds} for threads). Collective; every member gets the same answer, or the same error when
     * no pair is free everywhere.
     */
    final int agreeOnContextPair(String call, boolean member) {
        ContextIds ids = Environment.contextIds();
        int parent = spec().collectiveContext();
        int pair;
        ids.startAgreeing(parent);
        try {
            do {
                long[] mine = ids.offer(parent);
                // fresh each attempt, so a failed Allreduce settles as an attempt to retry, reserving nothing
                long[] common = new long[mine.length];
                try {
                    Allreduce(mine, 0, common, 0, mine.length, MPI.LONG, MPI.BAND);
                } finally {
                    pair = ids.settle(mine, common, member);
                }
            } while (pair == ContextIds.TRY_AGAIN);
        } finally {
            ids.stopAgreeing(parent);
        }
        if (pair < 0) {
            throw ContextIds.noFreePair(call, "every member of " + this);
        }
        return pair;
    }

    /** The context pairs free in every member: their bitmaps ANDed together. Collective. */
    final long[] commonFreeBits() {
        long[] mine = Environment.contextIds().freeBits();
        long[] common = new long[mine.length];
        Allreduce(mine, 0, common, 0, mine.length, MPI.LONG, MPI.BAND);
        return common;
    }

    /**
     * An intercommunicator between {@code local_comm}'s group and another, disjoint group (MPI_Intercomm_create),
     * called on the <em>peer</em> communicator, as in mpiJava 1.2. Collective over both groups: every member of
     * each calls it with its own {@code local_comm} and the same {@code local_leader} and {@code tag}. The two
     * leaders meet on this communicator, where the remote group's leader is {@code remote_leader} and
     * {@code tag} their messages' tag; only the leaders use this communicator and {@code remote_leader}. Errors,
     * raised in every member of the local group: {@code ERR_COMM} for a {@code local_comm} that is null, freed or
     * not an intracommunicator, {@code ERR_RANK} for a {@code local_leader} outside it, or (found by the leader) a
     * {@code remote_leader} outside this communicator or in the local group, {@code ERR_TAG} for a bad tag,
     * {@code ERR_GROUP} when the two groups share a process. See {@link Intercomm}.
     */
    public Intercomm Create_intercomm(Comm local_comm, int local_leader, int remote_leader, int tag) {
        return Intercomm.create(this, local_comm, local_leader, remote_leader, tag);
    }

    /** Gives {@code comm} the context pair agreed on and its members; this process is {@code rank} in it. */
    final <C extends Intracomm> C bound(C comm, int pair, int[] worldRanks, int rank) {
        comm.bind(new CommSpec(ContextIds.pointToPoint(pair), ContextIds.collective(pair), worldRanks, rank),
                Environment.backend().size());
        return comm;
    }

    /** Blocks until every process of the communicator has called it. */
    public void Barrier() {
        try {
            Environment.backend().barrier(spec());
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /** Copies {@code count} items from the root's buffer into every other member's buffer. */
    public void Bcast(Object buf, int offset, int count, Datatype datatype, int root) {
        try {
            String call = "Bcast";
            CommSpec spec = checkedRoot(call, root);
            if (ObjectCollectives.involved(datatype)) {
                ObjectCollectives.bcast(call, spec, buf, offset, count, datatype, root);
                return;
            }
            Buffers b = bcastBuffers(call, spec, buf, offset, count, datatype, root, CollectiveScratch.ofThread());
            Environment.backend().bcast(spec, b.send(), root);
            b.finish();
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /** The root's data, or the room the others receive it in; in {@code scratch} for a blocking call, else null. */
    private static Buffers bcastBuffers(String call, CommSpec spec, Object buf, int offset, int count,
                                        Datatype datatype, int root, CollectiveScratch scratch) {
        if (spec.rank() == root) {
            return new Buffers(packed(call, buf, offset, count, datatype, CollectiveScratch.packed(scratch)), null);
        }
        Landing into = landing(call, buf, offset, count, datatype, CollectiveScratch.results(scratch));
        return new Buffers(into.room(), into);
    }

    /** Each member's {@code sendcount} items land at the root, member i's at item {@code i * recvcount}. */
    public void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                       Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            String call = "Gather";
            CommSpec spec = checkedRoot(call, root);
            if (ObjectCollectives.involved(sendtype, spec.rank() == root ? recvtype : sendtype)) {
                checkCount(call, recvcount);
                ObjectCollectives.gather(call, spec, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                        new int[] {recvcount}, null, recvtype, root);
                return;
            }
            MpiBackend backend = Environment.backend();
            if (spec.rank() != root) {
                rejectInPlace(call, sendbuf, "send buffer (MPI.IN_PLACE is for the root only)");
                backend.gather(spec, packed(call, sendbuf, sendoffset, sendcount, sendtype), null, root);
                return;
            }
            checkCount(call, recvcount);
            Landing all = landing(call, recvbuf, recvoffset, recvcount * spec.size(), recvtype);
            ByteBuffer mine = sendbuf == MPI.IN_PLACE
                    ? copied(call, recvbuf, recvoffset + spec.rank() * recvcount * recvtype.Extent(), recvcount, recvtype)
                    : packed(call, sendbuf, sendoffset, sendcount, sendtype);
            backend.gather(spec, mine, all.room(), root);
            all.finish();
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /** Member i's {@code sendcount} items land at the root at {@code displs[i]}, {@code recvcounts[i]} of them. */
    public void Gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                        Object recvbuf, int recvoffset, int[] recvcounts, int[] displs, Datatype recvtype, int root) {
        try {
            String call = "Gatherv";
            CommSpec spec = checkedRoot(call, root);
            if (ObjectCollectives.involved(sendtype, spec.rank() == root ? recvtype : sendtype)) {
                if (spec.rank() == root) {
                    checkCounts(call, "recvcounts", recvcounts, spec.size());
                    checkDispls(call, "displs", displs, spec.size());
                }
                ObjectCollectives.gather(call, spec, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                        recvcounts, displs, recvtype, root);
                return;
            }
            MpiBackend backend = Environment.backend();
            if (spec.rank() != root) {
                rejectInPlace(call, sendbuf, "send buffer (MPI.IN_PLACE is for the root only)");
                backend.gatherv(spec, packed(call, sendbuf, sendoffset, sendcount, sendtype), null, root);
                return;
            }
            Landing[] blocks = landings(call, recvbuf, recvoffset, recvcounts, displs, recvtype, spec.size());
            int me = spec.rank();
            ByteBuffer mine = sendbuf == MPI.IN_PLACE
                    ? copied(call, recvbuf, recvoffset + displs[me] * recvtype.Extent(), recvcounts[me], recvtype)
                    : packed(call, sendbuf, sendoffset, sendcount, sendtype);
            backend.gatherv(spec, mine, Landing.rooms(blocks), root);
            Landing.finishAll(blocks);
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /** Items {@code i * sendcount} on of the root's buffer land in member i's buffer. */
    public void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                        Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            String call = "Scatter";
            CommSpec spec = checkedRoot(call, root);
            if (ObjectCollectives.involved(recvtype, spec.rank() == root ? sendtype : recvtype)) {
                checkCount(call, sendcount);
                ObjectCollectives.scatter(call, spec, sendbuf, sendoffset, new int[] {sendcount}, null, sendtype, recvbuf,
                        recvoffset, recvcount, recvtype, root);
                return;
            }
            MpiBackend backend = Environment.backend();
            if (spec.rank() != root) {
                Landing mine = landing(call, recvbuf, recvoffset, recvcount, recvtype);
                backend.scatter(spec, null, mine.room(), root);
                mine.finish();
                return;
            }
            checkCount(call, sendcount);
            ByteBuffer all = packed(call, sendbuf, sendoffset, sendcount * spec.size(), sendtype);
            Landing mine = recvbuf == MPI.IN_PLACE ? null : landing(call, recvbuf, recvoffset, recvcount, recvtype);
            backend.scatter(spec, all, mine == null ? null : mine.room(), root);
            if (mine != null) {
                mine.finish();
            }
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /** The root's {@code sendcounts[i]} items at {@code displs[i]} land in member i's buffer. */
    public void Scatterv(Object sendbuf, int sendoffset, int[] sendcounts, int[] displs, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        try {
            String call = "Scatterv";
            CommSpec spec = checkedRoot(call, root);
            if (ObjectCollectives.involved(recvtype, spec.rank() == root ? sendtype : recvtype)) {
                if (spec.rank() == root) {
                    checkCounts(call, "sendcounts", sendcounts, spec.size());
                    checkDispls(call, "displs", displs, spec.size());
                }
                ObjectCollectives.scatter(call, spec, sendbuf, sendoffset, sendcounts, displs, sendtype, recvbuf,
                        recvoffset, recvcount, recvtype, root);
                return;
            }
            MpiBackend backend = Environment.backend();
            if (spec.rank() != root) {
                Landing mine = landing(call, recvbuf, recvoffset, recvcount, recvtype);
                backend.scatterv(spec, null, mine.room(), root);
                mine.finish();
                return;
            }
            ByteBuffer[] blocks = packedBlocks(call, sendbuf, sendoffset, sendcounts, displs, sendtype, spec.size(), true);
            Landing mine = recvbuf == MPI.IN_PLACE ? null : landing(call, recvbuf, recvoffset, recvcount, recvtype);
            backend.scatterv(spec, blocks, mine == null ? null : mine.room(), root);
            if (mine != null) {
                mine.finish();
            }
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /** {@link #Gather} with the result at every member. */
    public void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                          Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        try {
            String call = "Allgather";
            CommSpec spec = spec();
            if (ObjectCollectives.involved(sendtype, recvtype)) {
                checkCount(call, recvcount);
                ObjectCollectives.allgather(call, spec, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                        new int[] {recvcount}, null, recvtype);
                return;
            }
            Buffers b = allgatherBuffers(call, spec, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                    recvcount, recvtype, CollectiveScratch.ofThread());
            Environment.backend().allgather(spec, b.send(), b.room());
            b.finish();
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    private static Buffers allgatherBuffers(String call, CommSpec spec, Object sendbuf, int sendoffset, int sendcount,
                                            Datatype sendtype, Object recvbuf, int recvoffset, int recvcount,
                                            Datatype recvtype, CollectiveScratch scratch) {
        checkCount(call, recvcount);
        Landing all = landing(call, recvbuf, recvoffset, recvcount * spec.size(), recvtype,
                CollectiveScratch.results(scratch));
        ByteBuffer mine = sendbuf == MPI.IN_PLACE
                ? copied(call, recvbuf, recvoffset + spec.rank() * recvcount * recvtype.Extent(), recvcount, recvtype,
                CollectiveScratch.packed(scratch))
                : packed(call, sendbuf, sendoffset, sendcount, sendtype, CollectiveScratch.packed(scratch));
        return new Buffers(mine, all);
    }

    /** {@link #Gatherv} with the result at every member. */
    public void Allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                           Object recvbuf, int recvoffset, int[] recvcounts, int[] displs, Datatype recvtype) {
        try {
            String call = "Allgatherv";
            CommSpec spec = spec();
            if (ObjectCollectives.involved(sendtype, recvtype)) {
                checkCounts(call, "recvcounts", recvcounts, spec.size());
                checkDispls(call, "displs", displs, spec.size());
                ObjectCollectives.allgather(call, spec, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                        recvcounts, displs, recvtype);
                return;
            }
            Landing[] blocks = landings(call, recvbuf, recvoffset, recvcounts, displs, recvtype, spec.size());
            int me = spec.rank();
            ByteBuffer mine = sendbuf == MPI.IN_PLACE
                    ? copied(call, recvbuf, recvoffset + displs[me] * recvtype.Extent(), recvcounts[me], recvtype)
                    : packed(call, sendbuf, sendoffset, sendcount, sendtype);
            Environment.backend().allgatherv(spec, mine, Landing.rooms(blocks));
            Landing.finishAll(blocks);
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /** Block j ({@code sendcount} items at {@code j * sendcount}) of member i lands in block i of member j. */
    public void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        try {
            String call = "Alltoall";
            CommSpec spec = spec();
            if (ObjectCollectives.involved(sendtype, recvtype)) {
                checkCount(call, recvcount);
                checkCount(call, sendcount);
                ObjectCollectives.alltoall(call, spec, sendbuf, sendoffset, new int[] {sendcount}, null, sendtype, recvbuf,
                        recvoffset, new int[] {recvcount}, null, recvtype);
                return;
            }
            Buffers b = alltoallBuffers(call, spec, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                    recvcount, recvtype, CollectiveScratch.ofThread());
            Environment.backend().alltoall(spec, b.send(), b.room());
            b.finish();
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    private static Buffers alltoallBuffers(String call, CommSpec spec, Object sendbuf, int sendoffset, int sendcount,
                                           Datatype sendtype, Object recvbuf, int recvoffset, int recvcount,
                                           Datatype recvtype, CollectiveScratch scratch) {
        checkCount(call, recvcount);
        int p = spec.size();
        Landing all = landing(call, recvbuf, recvoffset, recvcount * p, recvtype, CollectiveScratch.results(scratch));
        ByteBuffer send;
        if (sendbuf == MPI.IN_PLACE) {
            send = copied(call, recvbuf, recvoffset, recvcount * p, recvtype, CollectiveScratch.packed(scratch));
        } else {
            checkCount(call, sendcount);
            send = packed(call, sendbuf, sendoffset, sendcount * p, sendtype, CollectiveScratch.packed(scratch));
        }
        return new Buffers(send, all);
    }

    /** Member i's {@code sendcounts[j]} items at {@code sdispls[j]} land in member j's buffer at {@code rdispls[i]}. */
    public void Alltoallv(Object sendbuf, int sendoffset, int[] sendcounts, int[] sdispls, Datatype sendtype,
                          Object recvbuf, int recvoffset, int[] recvcounts, int[] rdispls, Datatype recvtype) {
        try {
            String call = "Alltoallv";
            CommSpec spec = spec();
            if (ObjectCollectives.involved(sendtype, recvtype)) {
                checkCounts(call, "recvcounts", recvcounts, spec.size());
                checkDispls(call, "rdispls", rdispls, spec.size());
                if (sendbuf != MPI.IN_PLACE) {
                    checkCounts(call, "sendcounts", sendcounts, spec.size());
                    checkDispls(call, "sdispls", sdispls, spec.size());
                }
                ObjectCollectives.alltoall(call, spec, sendbuf, sendoffset, sendcounts, sdispls, sendtype, recvbuf,
                        recvoffset, recvcounts, rdispls, recvtype);
                return;
            }
            int p = spec.size();
            Landing[] blocks = landings(call, recvbuf, recvoffset, recvcounts, rdispls, recvtype, p);
            ByteBuffer[] send = sendbuf == MPI.IN_PLACE
                    ? packedBlocks(call, recvbuf, recvoffset, recvcounts, rdispls, recvtype, p, false)
                    : packedBlocks(call, sendbuf, sendoffset, sendcounts, sdispls, sendtype, p, true);
            Environment.backend().alltoallv(spec, send, Landing.rooms(blocks));
            Landing.finishAll(blocks);
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /** Combines {@code count} items of every member with {@code op}, in rank order, into the root's buffer. */
    public void Reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                       Datatype datatype, Op op, int root) {
        try {
            String call = "Reduce";
            CommSpec spec = checkedRoot(call, root);
            if (objectReduction(call, op, datatype)) {
                if (spec.rank() != root) {
                    rejectInPlace(call, sendbuf, "send buffer (MPI.IN_PLACE is for the root only)");
                }
                ObjectCollectives.reduce(call, spec, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, root);
                return;
            }
            Reduction reduction = reduction(call, op, datatype);
            Buffers b = reduceBuffers(call, spec, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, root,
                    CollectiveScratch.ofThread());
            Environment.backend().reduce(spec, b.send(), b.room(), reduction, root);
            b.finish();
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /** The contribution, and at the root the room of the result; in {@code scratch} for a blocking call, else null. */
    private static Buffers reduceBuffers(String call, CommSpec spec, Object sendbuf, int sendoffset, Object recvbuf,
                                         int recvoffset, int count, Datatype datatype, int root,
                                         CollectiveScratch scratch) {
        if (spec.rank() != root) {
            rejectInPlace(call, sendbuf, "send buffer (MPI.IN_PLACE is for the root only)");
            return new Buffers(packed(call, sendbuf, sendoffset, count, datatype, CollectiveScratch.packed(scratch)),
                    null);
        }
        return reductionBuffers(call, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, scratch);
    }

    /**
     * The contribution and the room of the result of a reduction whose result every member gets; in
     * {@code scratch} for a blocking call, else null.
     */
    private static Buffers reductionBuffers(String call, Object sendbuf, int sendoffset, Object recvbuf,
                                            int recvoffset, int count, Datatype datatype, CollectiveScratch scratch) {
        Landing result = landing(call, recvbuf, recvoffset, count, datatype, CollectiveScratch.results(scratch));
        return new Buffers(contribution(call, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype,
                CollectiveScratch.packed(scratch)), result);
    }

    /**
     * The thread's {@link ArrayOperands} for a reduction over the user's arrays, checked as {@link #reductionBuffers}
     * checks them: the result's buffer, then the contribution's (the result's again for {@code MPI.IN_PLACE}).
     */
    private static ArrayOperands arrayOperands(String call, Object sendbuf, int sendoffset, Object recvbuf,
                                               int recvoffset, int count, Datatype datatype, Op op,
                                               CollectiveScratch scratch) {
        datatype.checkBuffer(call, recvbuf, recvoffset, count, true);
        boolean inPlace = sendbuf == MPI.IN_PLACE;
        if (!inPlace) {
            datatype.checkBuffer(call, sendbuf, sendoffset, count, false);
        }
        return scratch.operands.of(op, datatype, inPlace ? recvbuf : sendbuf, inPlace ? recvoffset : sendoffset,
                recvbuf, recvoffset, count);
    }

    /** {@link #Reduce} with the result at every member. */
    public void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                          Datatype datatype, Op op) {
        try {
            String call = "Allreduce";
            CommSpec spec = spec();
            if (objectReduction(call, op, datatype)) {
                ObjectCollectives.allreduce(call, spec, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
                return;
            }
            Reduction reduction = reduction(call, op, datatype);
            CollectiveScratch scratch = CollectiveScratch.ofThread();
            if (ArrayOperands.serve(op, datatype, sendbuf, recvbuf)) {
                ArrayOperands operands = arrayOperands(call, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype,
                        op, scratch);
                try {
                    Environment.backend().allreduce(spec, operands, reduction);
                } finally {
                    operands.clear();
                }
                return;
            }
            Buffers b = reductionBuffers(call, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, scratch);
            Environment.backend().allreduce(spec, b.send(), b.room(), reduction);
            b.finish();
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /**
     * Reduces vectors of {@code sum(recvcounts)} items and leaves block i of the result
     * ({@code recvcounts[i]} items) in member i's buffer.
     */
    public void Reduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                               Datatype datatype, Op op) {
        try {
            String call = "Reduce_scatter";
            CommSpec spec = spec();
            int p = spec.size();
            if (objectReduction(call, op, datatype)) {
                checkCounts(call, "recvcounts", recvcounts, p);
                long total = Arrays.stream(recvcounts, 0, p).asLongStream().sum();
                if (total > Integer.MAX_VALUE) {
                    throw new MPIException(MPI.ERR_COUNT, call + ": the counts add up to more than 2^31 - 1 items");
                }
                ObjectCollectives.reduceScatter(call, spec, sendbuf, sendoffset, recvbuf, recvoffset, recvcounts,
                        (int) total, datatype, op);
                return;
            }
            Reduction reduction = reduction(call, op, datatype);
            checkCounts(call, "recvcounts", recvcounts, p);
            int[] blockBytes = new int[p];
            long total = 0;
            for (int i = 0; i < p; i++) {
                blockBytes[i] = recvcounts[i] * reduction.itemBytes();
                total += recvcounts[i];
            }
            if (total > Integer.MAX_VALUE) {
                throw new MPIException(MPI.ERR_COUNT, call + ": the counts add up to more than 2^31 - 1 items");
            }
            ByteBuffer send = contribution(call, sendbuf, sendoffset, recvbuf, recvoffset, (int) total, datatype);
            Landing result = landing(call, recvbuf, recvoffset, recvcounts[spec.rank()], datatype);
            Environment.backend().reduceScatter(spec, send, result.room(), blockBytes, reduction);
            result.finish();
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /** Inclusive prefix reduction: member i gets the combination of members 0..i, in rank order. */
    public void Scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                     Datatype datatype, Op op) {
        try {
            String call = "Scan";
            CommSpec spec = spec();
            if (objectReduction(call, op, datatype)) {
                ObjectCollectives.scan(call, spec, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, false);
                return;
            }
            Reduction reduction = reduction(call, op, datatype);
            Buffers b = reductionBuffers(call, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype,
                    CollectiveScratch.ofThread());
            Environment.backend().scan(spec, b.send(), b.room(), reduction);
            b.finish();
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /**
     * Exclusive prefix reduction: member i gets the combination of members 0..i-1, in rank order; member 0's
     * receive buffer is left unchanged (MPI leaves it undefined). {@link MPI#IN_PLACE} as the send buffer takes
     * each member's contribution from its receive buffer. Runs as {@link #Scan} followed by a shift of each
     * member's inclusive result to the next member, so non-commutative operations get MPI's result.
     */
    public void Exscan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                       Datatype datatype, Op op) {
        try {
            String call = "Exscan";
            CommSpec spec = spec();
            if (objectReduction(call, op, datatype)) {
                ObjectCollectives.scan(call, spec, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, true);
                return;
            }
            Reduction reduction = reduction(call, op, datatype);
            Landing result = landing(call, recvbuf, recvoffset, count, datatype);
            ByteBuffer mine = contribution(call, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype);
            MpiBackend backend = Environment.backend();
            ByteBuffer inclusive = ByteBuffer.allocate(mine.remaining());
            backend.scan(spec, mine, inclusive, reduction);
            if (shiftUp(call, spec, inclusive, result.room())) {
                result.finish();
            }
        } catch (RuntimeException e) {
            throw revoking(e);
        }
    }

    /**
     * Sends {@code data} to the next member and receives the previous member's into {@code room}, on the
     * collective context with the API layer's tag ({@link CommSpec#API_TAG}); false at member 0, which receives
     * nothing.
     */
    private static boolean shiftUp(String call, CommSpec spec, ByteBuffer data, ByteBuffer room) {
        MpiBackend backend = Environment.backend();
        int me = spec.rank();
        int context = spec.collectiveContext();
        Operation send = me + 1 < spec.size()
                ? backend.send(data, spec.worldRanks()[me + 1], CommSpec.API_TAG, context, SendMode.STANDARD)
                : null;
        Operation receive = me > 0 ? backend.receive(room, spec.worldRanks()[me - 1], CommSpec.API_TAG, context) : null;
        backend.await(new AllComplete(send, receive));
        for (Operation op : new Operation[] {send, receive}) {
            if (op != null && op.error() != null) {
                throw Request.asMpiException(op.error());
            }
        }
        if (receive != null && receive.byteCount() != room.remaining()) {
            throw new MPIException(MPI.ERR_COUNT, call + ": rank " + (me - 1) + " of " + spec.size() + " sent "
                    + receive.byteCount() + " bytes, " + room.remaining() + " expected; the members' counts differ");
        }
        return receive != null;
    }

    // ---- non-blocking collectives: started here, completed by Request.Wait, Test and their array forms ----
    // Same arguments and errors as the blocking calls (MPI.OBJECT aside: ERR_TYPE). The buffers belong to the
    // collective until its request completes; a result lands in the receive buffer at completion. The runtime
    // advances them whenever the program drives progress (Test, Wait, or any other call), with no thread of its
    // own. Every member must start the same collectives on a communicator in the same order.

    /** Starts a {@link #Barrier}: the request completes once every member has started it. */
    public Request Ibarrier() {
        CommSpec spec = spec();
        return Request.collective(this, Environment.backend().ibarrier(spec, nextCollectiveSequence()), null);
    }

    /** Starts a {@link #Bcast}. */
    public Request Ibcast(Object buf, int offset, int count, Datatype datatype, int root) {
        String call = "Ibcast";
        CommSpec spec = checkedRoot(call, root);
        rejectObjects(call, datatype);
        Buffers b = bcastBuffers(call, spec, buf, offset, count, datatype, root, null);
        return Request.collective(this, Environment.backend().ibcast(spec, nextCollectiveSequence(), b.send(), root),
                b.result());
    }

    /** Starts a {@link #Reduce}. */
    public Request Ireduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                           Datatype datatype, Op op, int root) {
        String call = "Ireduce";
        CommSpec spec = checkedRoot(call, root);
        rejectObjects(call, datatype);
        Reduction reduction = reduction(call, op, datatype);
        Buffers b = reduceBuffers(call, spec, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, root, null);
        return Request.collective(this, Environment.backend().ireduce(spec, nextCollectiveSequence(), b.send(),
                b.room(), reduction, root), b.result());
    }

    /** Starts an {@link #Allreduce}. */
    public Request Iallreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                              Datatype datatype, Op op) {
        String call = "Iallreduce";
        CommSpec spec = spec();
        rejectObjects(call, datatype);
        Reduction reduction = reduction(call, op, datatype);
        Buffers b = reductionBuffers(call, sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, null);
        return Request.collective(this, Environment.backend().iallreduce(spec, nextCollectiveSequence(), b.send(),
                b.room(), reduction), b.result());
    }

    /** Starts an {@link #Allgather}. */
    public Request Iallgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                              Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        String call = "Iallgather";
        CommSpec spec = spec();
        rejectObjects(call, sendtype, recvtype);
        Buffers b = allgatherBuffers(call, spec, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                recvcount, recvtype, null);
        return Request.collective(this, Environment.backend().iallgather(spec, nextCollectiveSequence(), b.send(),
                b.room()), b.result());
    }

    /** Starts an {@link #Alltoall}. */
    public Request Ialltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                             Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) {
        String call = "Ialltoall";
        CommSpec spec = spec();
        rejectObjects(call, sendtype, recvtype);
        Buffers b = alltoallBuffers(call, spec, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                recvcount, recvtype, null);
        return Request.collective(this, Environment.backend().ialltoall(spec, nextCollectiveSequence(), b.send(),
                b.room()), b.result());
    }

    /** What a collective sends, and where its result lands (null where it receives nothing). */
    private record Buffers(ByteBuffer send, Landing result) {
        ByteBuffer room() {
            return result == null ? null : result.room();
        }

        void finish() {
            if (result != null) {
                result.finish();
            }
        }
    }

    private static void rejectObjects(String call, Datatype... types) {
        if (ObjectCollectives.involved(types)) {
            throw new MPIException(MPI.ERR_TYPE, call + ": non-blocking collectives do not support MPI.OBJECT; "
                    + "use the blocking collective");
        }
    }

    // ---- buffers: packing and unpacking are the datatype's, as for point-to-point ----

    /** The bytes of a send buffer, shared with it where possible (collectives only read them). */
    private static ByteBuffer packed(String call, Object buf, int offset, int count, Datatype type) {
        return packed(call, buf, offset, count, type, null);
    }

    /** {@link #packed}, a copy made in {@code scratch} (null: in a buffer of its own). */
    private static ByteBuffer packed(String call, Object buf, int offset, int count, Datatype type,
                                     ScratchBuffer scratch) {
        rejectInPlace(call, buf, "buffer");
        checkType(call, type);
        type.checkBuffer(call, buf, offset, count, false);
        return type.pack(buf, offset, count, true, scratch);
    }

    /** A private copy of part of a receive buffer: the send data of an in-place call, which the result overwrites. */
    private static ByteBuffer copied(String call, Object buf, int offset, int count, Datatype type) {
        return copied(call, buf, offset, count, type, null);
    }

    private static ByteBuffer copied(String call, Object buf, int offset, int count, Datatype type,
                                     ScratchBuffer scratch) {
        rejectInPlace(call, buf, "receive buffer (MPI.IN_PLACE needs a real one)");
        checkType(call, type);
        type.checkBuffer(call, buf, offset, count, true);
        return type.pack(buf, offset, count, false, scratch);
    }

    private static Landing landing(String call, Object buf, int offset, int count, Datatype type) {
        return landing(call, buf, offset, count, type, null);
    }

    /** {@link #landing}, a room it needs taken from {@code scratch} (null: allocated). */
    private static Landing landing(String call, Object buf, int offset, int count, Datatype type,
                                   ScratchBuffer scratch) {
        rejectInPlace(call, buf, "receive buffer");
        checkType(call, type);
        type.checkBuffer(call, buf, offset, count, true);
        return Landing.of(type, buf, offset, count, scratch);
    }

    /** A reduction's own contribution: its send buffer, or with MPI.IN_PLACE a copy of its receive buffer. */
    private static ByteBuffer contribution(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
                                           int count, Datatype type) {
        return contribution(call, sendbuf, sendoffset, recvbuf, recvoffset, count, type, null);
    }

    private static ByteBuffer contribution(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
                                           int count, Datatype type, ScratchBuffer scratch) {
        return sendbuf == MPI.IN_PLACE
                ? copied(call, recvbuf, recvoffset, count, type, scratch)
                : packed(call, sendbuf, sendoffset, count, type, scratch);
    }

    private static Landing[] landings(String call, Object buf, int offset, int[] counts, int[] displs, Datatype type,
                                      int p) {
        checkCounts(call, "recvcounts", counts, p);
        checkDispls(call, "displs", displs, p);
        Landing[] blocks = new Landing[p];
        for (int i = 0; i < p; i++) {
            blocks[i] = landing(call, buf, offset + displs[i] * type.Extent(), counts[i], type);
        }
        return blocks;
    }

    private static ByteBuffer[] packedBlocks(String call, Object buf, int offset, int[] counts, int[] displs,
                                             Datatype type, int p, boolean share) {
        checkCounts(call, "sendcounts", counts, p);
        checkDispls(call, "displs", displs, p);
        ByteBuffer[] blocks = new ByteBuffer[p];
        for (int i = 0; i < p; i++) {
            int at = offset + displs[i] * type.Extent();
            blocks[i] = share ? packed(call, buf, at, counts[i], type) : copied(call, buf, at, counts[i], type);
        }
        return blocks;
    }

    // ---- argument checks ----

    private CommSpec checkedRoot(String call, int root) {
        CommSpec spec = spec();
        if (root < 0 || root >= spec.size()) {
            throw new MPIException(MPI.ERR_ROOT, call + ": root " + root + " is not a rank of " + this
                    + " (size " + spec.size() + ")");
        }
        return spec;
    }

    private static Reduction reduction(String call, Op op, Datatype type) {
        if (op == null) {
            throw new MPIException(MPI.ERR_OP, call + ": op is null");
        }
        checkType(call, type);
        return op.on(type, call);
    }

    /** Whether a reduction runs over MPI.OBJECT (with a user op, or ERR_OP); checks op and count either way. */
    private static boolean objectReduction(String call, Op op, Datatype type) {
        if (!ObjectCollectives.involved(type)) {
            return false;
        }
        if (op == null) {
            throw new MPIException(MPI.ERR_OP, call + ": op is null");
        }
        op.objectFunction(call);
        return true;
    }

    private static void checkType(String call, Datatype type) {
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype is null");
        }
        if (type.packedItemBytes() < 0) {
            throw new MPIException(MPI.ERR_TYPE, call + ": collectives do not support " + type
                    + " (its size is known only once serialised)");
        }
    }

    private static void rejectInPlace(String call, Object buf, String what) {
        if (buf == MPI.IN_PLACE) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": MPI.IN_PLACE is not allowed as the " + what);
        }
    }

    private static void checkCount(String call, int count) {
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, call + ": count must not be negative, was " + count);
        }
    }

    private static void checkCounts(String call, String name, int[] counts, int p) {
        if (counts == null || counts.length < p) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + name + " needs one entry per rank (" + p + "), got "
                    + (counts == null ? "null" : counts.length));
        }
        for (int i = 0; i < p; i++) {
            if (counts[i] < 0) {
                throw new MPIException(MPI.ERR_COUNT, call + ": " + name + "[" + i + "] must not be negative, was "
                        + counts[i]);
            }
        }
    }

    private static void checkDispls(String call, String name, int[] displs, int p) {
        if (displs == null || displs.length < p) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + name + " needs one entry per rank (" + p + "), got "
                    + (displs == null ? "null" : displs.length));
        }
    }
}
