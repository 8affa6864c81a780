package mpi;

import dev.mpj.api.CommSpec;
import java.util.Arrays;

/**
 * A communicator between two disjoint groups of processes (mpiJava 1.2's {@code Intercomm}), made by
 * {@link Intracomm#Create_intercomm}. {@link #Size}, {@link #Rank} and {@link #Group} describe the caller's own
 * (local) group; the ranks of point-to-point calls name processes of the other (remote) group, so do
 * {@code Status.source} and {@link MPI#ANY_SOURCE}.
 *
 * <p>Both groups share one context pair, agreed through their leaders (see {@link LeaderHandshake}), so it is free
 * in every process of both. Collective operations are {@link #Barrier} and {@link #Bcast}, with MPI's
 * intercommunicator meaning; as in mpiJava 1.2 an {@code Intercomm} is not an {@link Intracomm}, so it has no
 * other collective: {@link #Merge} it into one first. {@link #Dup}, {@link #Merge} and {@link #Free} are
 * collective over both groups, {@link #Free} without waiting.
 */
public class Intercomm extends Comm {
    /** The remote group's members as world ranks, in remote rank order. */
    private int[] remote;
    /** The local group as an intracommunicator on this one's context pair: the collectives within the group. */
    private Intracomm local;
    /** The remote group on the collective context: the collectives' messages between the groups. */
    private InterLink link;

    private Intercomm(String name) {
        super(name);
    }

    /** {@link Intracomm#Create_intercomm} called on {@code peer}. */
    static Intercomm create(Intracomm peer, Comm local_comm, int local_leader, int remote_leader, int tag) {
        String call = "Create_intercomm";
        Environment.backend();
        if (!(local_comm instanceof Intracomm localComm)) {
            throw new MPIException(MPI.ERR_COMM, call + ": local_comm " + (local_comm == null ? "is null"
                    : local_comm + " is not an intracommunicator"));
        }
        CommSpec mine = localComm.spec();
        if (local_leader < 0 || local_leader >= mine.size()) {
            throw new MPIException(MPI.ERR_RANK, call + ": local_leader " + local_leader + " is not a rank of "
                    + localComm + " (size " + mine.size() + ")");
        }
        LeaderHandshake.Outcome agreed = LeaderHandshake.agree(call, localComm, local_leader, false, description -> {
            checkRemoteLeader(call, peer, remote_leader, mine.worldRanks());
            return LeaderHandshake.swap(peer, remote_leader, tag, description);
        });
        return bound(localComm + ".Create_intercomm", agreed.pair(), mine, agreed.remote().members());
    }

    private static void checkRemoteLeader(String call, Intracomm peer, int remoteLeader, int[] localMembers) {
        CommSpec peers = peer.spec();
        if (remoteLeader < 0 || remoteLeader >= peers.size()) {
            throw new MPIException(MPI.ERR_RANK, call + ": remote_leader " + remoteLeader + " is not a rank of "
                    + peer + " (size " + peers.size() + ")");
        }
        int world = peers.worldRanks()[remoteLeader];
        for (int w : localMembers) {
            if (w == world) {
                throw new MPIException(MPI.ERR_RANK, call + ": remote_leader " + remoteLeader + " of " + peer
                        + " is a member of the local group; the remote leader must be in the other group");
            }
        }
    }

    /** An intercommunicator on {@code pair} between the group of {@code localSpec} and {@code remote}. */
    private static Intercomm bound(String name, int pair, CommSpec localSpec, int[] remote) {
        Environment.contextIds().reserve(pair);
        int[] members = localSpec.worldRanks();
        int rank = localSpec.rank();
        int collective = ContextIds.collective(pair);
        CommSpec spec = new CommSpec(ContextIds.pointToPoint(pair), collective, members, rank);
        int worldSize = Environment.backend().size();
        Intercomm comm = new Intercomm(name);
        comm.bind(spec, remote, worldSize);
        comm.remote = remote;
        comm.local = new Intracomm(name + " (local group)");
        comm.local.bind(spec, worldSize);
        comm.link = new InterLink(name + " (between the groups)");
        comm.link.bind(new CommSpec(collective, collective, members, rank), remote, worldSize);
        return comm;
    }

    @Override
    public boolean Test_inter() {
        spec();
        return true;
    }

    /** Number of processes in the remote group. */
    public int Remote_size() {
        spec();
        return remote.length;
    }

    /** The processes of the remote group, in remote rank order; the caller is not a member. */
    public Group Remote_group() {
        CommSpec spec = spec();
        return new Group(remote.clone(), spec.worldRanks()[spec.rank()]);
    }

    /**
     * An intracommunicator of both groups (MPI_Intercomm_merge): the group whose processes gave {@code high} false
     * first, each group in its own rank order. When both groups give the same value, the group whose leader (rank
     * 0) has the lower rank in {@code MPI.COMM_WORLD} comes first. The members of a group must agree on
     * {@code high}; its leader's value counts. Collective over both groups.
     */
    public Intracomm Merge(boolean high) {
        String call = "Merge";
        CommSpec spec = spec();
        LeaderHandshake.Outcome agreed = handshake(call, high);
        boolean remoteHigh = agreed.remote().flag();
        boolean localFirst = agreed.localFlag() != remoteHigh ? remoteHigh : spec.worldRanks()[0] < remote[0];
        int[] first = localFirst ? spec.worldRanks() : remote;
        int[] second = localFirst ? remote : spec.worldRanks();
        int[] members = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, members, first.length, second.length);
        int rank = (localFirst ? 0 : remote.length) + spec.rank();
        Environment.contextIds().reserve(agreed.pair()); // agreed through the leaders, not by Intracomm's own scheme
        return local.bound(new Intracomm(this + ".Merge(" + high + ")"), agreed.pair(), members, rank);
    }

    /** {@inheritDoc} Returns an {@link Intercomm} between the same groups. Collective over both groups. */
    @Override
    public Object clone() {
        return duplicate("clone");
    }

    /** {@link #clone} under MPI's name. */
    @Override
    public Intercomm Dup() {
        return duplicate("Dup");
    }

    private Intercomm duplicate(String call) {
        CommSpec spec = spec();
        LeaderHandshake.Outcome agreed = handshake(call, false);
        return bound(this + "." + call + "()", agreed.pair(), spec, remote);
    }

    /** The handshake of this intercommunicator's groups, their leaders meeting over {@link #link}. */
    private LeaderHandshake.Outcome handshake(String call, boolean flag) {
        return LeaderHandshake.agree(call, local, 0, flag,
                description -> LeaderHandshake.swap(link, 0, CommSpec.API_TAG, description));
    }

    /**
     * Blocks until every process of both groups has called it: a barrier within each group, the two leaders swap a
     * message, then each leader releases its group.
     */
    public void Barrier() {
        spec();
        local.Barrier();
        byte[] token = new byte[1];
        if (local.Rank() == 0) {
            link.Sendrecv(token, 0, 1, MPI.BYTE, 0, CommSpec.API_TAG, token, 0, 1, MPI.BYTE, 0, CommSpec.API_TAG);
        }
        local.Bcast(token, 0, 1, MPI.BYTE, 0);
    }

    /**
     * Copies {@code count} items from one process of one group into every process of the other group. In the root's
     * group the root passes {@link MPI#ROOT} and the others {@link MPI#PROC_NULL} (their buffers are not used); in
     * the receiving group every process passes the root's rank in the root's group. The root sends to the remote
     * leader (rank 0), which broadcasts within its group. {@code ERR_ROOT} for any other root value; the other
     * errors are those of {@link Intracomm#Bcast}, plus {@code ERR_COUNT} or {@code ERR_TRUNCATE} at the receiving
     * leader when the root sent another number of items, raised after it has passed on what it received.
     */
    public void Bcast(Object buf, int offset, int count, Datatype datatype, int root) {
        String call = "Bcast";
        CommSpec spec = spec();
        if (root == MPI.ROOT) {
            link.Send(buf, offset, count, datatype, 0, CommSpec.API_TAG);
            return;
        }
        if (root == MPI.PROC_NULL) {
            return;
        }
        if (root < 0 || root >= remote.length) {
            throw new MPIException(MPI.ERR_ROOT, call + ": root " + root + " is neither MPI.ROOT, MPI.PROC_NULL nor a "
                    + "rank of the remote group of " + this + " (size " + remote.length + ")");
        }
        MPIException failed = spec.rank() == 0 ? received(call, buf, offset, count, datatype, root) : null;
        // passed on even after a failure, so the rest of the group does not wait forever
        local.Bcast(buf, offset, count, datatype, 0);
        if (failed != null) {
            throw failed;
        }
    }

    /** The receiving leader's part of {@link #Bcast}: the root's items, or the error they caused. */
    private MPIException received(String call, Object buf, int offset, int count, Datatype datatype, int root) {
        try {
            Status got = link.Recv(buf, offset, count, datatype, root, CommSpec.API_TAG);
            int items = got.Get_count(datatype);
            if (items != count && !ObjectCollectives.involved(datatype)) {
                return new MPIException(MPI.ERR_COUNT, call + ": the root sent " + items + " items of " + datatype
                        + ", " + count + " expected; the counts differ");
            }
            return null;
        } catch (MPIException e) {
            if (e.getErrorClass() != MPI.ERR_TRUNCATE) {
                throw e;
            }
            return e;
        }
    }
}
