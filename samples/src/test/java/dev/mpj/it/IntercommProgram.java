package dev.mpj.it;

import java.util.Arrays;
import mpi.Comm;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Intercommunicators across processes: WORLD split into its even and odd ranks, joined by
 * {@code Create_intercomm}; point-to-point both ways with the values and sources checked, {@code ANY_SOURCE},
 * {@code Remote_size}/{@code Remote_group}, {@code Merge} in both orders, {@code Dup} with isolation, {@code Free},
 * {@code Barrier}, {@code Bcast} in both directions, and argument errors. Needs two processes at least; each rank
 * checks its own results.
 */
public final class IntercommProgram {
    private static final int TAG = 77;
    private static Intracomm world;
    private static int rank;
    private static int size;
    /** Whether this process is in the even group. */
    private static boolean even;
    /** The world ranks of the even and odd groups, in group rank order. */
    private static int[] evens;
    private static int[] odds;

    private IntercommProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.Rank();
        size = world.Size();
        even = rank % 2 == 0;
        evens = ranksOfParity(0);
        odds = ranksOfParity(1);
        Intracomm half = world.Split(rank % 2, rank);
        Intercomm inter = world.Create_intercomm(half, 0, even ? 1 : 0, TAG);
        groups(inter, half);
        pointToPointBothWays(inter);
        anySource(inter);
        merge(inter, false);
        merge(inter, true);
        dupIsIsolated(inter);
        barrierWaitsForTheOtherGroup(inter);
        bcastBothWays(inter);
        errors(inter, half);
        freeThenAgain(inter, half);
        half.Free();
        world.Barrier();
        Check.done("intercomm");
        MPI.Finalize();
    }

    private static int[] ranksOfParity(int parity) {
        int[] ranks = new int[(size - parity + 1) / 2];
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = 2 * i + parity;
        }
        return ranks;
    }

    private static int[] remoteGroup() {
        return even ? odds : evens;
    }

    static void groups(Intercomm inter, Intracomm half) {
        Check.that(inter.Test_inter(), "Test_inter of an intercommunicator");
        Check.that(!half.Test_inter(), "Test_inter of an intracommunicator");
        Check.equal(half.Size(), inter.Size(), "Size is the local group's");
        Check.equal(rank / 2, inter.Rank(), "Rank in the local group");
        Check.equal(MPI.IDENT, Group.Compare(half.Group(), inter.Group()), "Group is the local group");
        int[] remote = remoteGroup();
        Check.equal(remote.length, inter.Remote_size(), "Remote_size");
        Group group = inter.Remote_group();
        Check.equal(MPI.UNDEFINED, group.Rank(), "own rank in the remote group");
        int[] inWorld = Group.Translate_ranks(group, identity(remote.length), world.Group());
        Check.that(Arrays.equals(remote, inWorld), "Remote_group in world ranks: " + Arrays.toString(inWorld));
    }

    private static int[] identity(int n) {
        int[] ranks = new int[n];
        Arrays.setAll(ranks, i -> i);
        return ranks;
    }

    /** Every process sends to every remote rank and receives from each by rank; values name sender and receiver. */
    static void pointToPointBothWays(Intercomm inter) {
        int n = inter.Remote_size();
        Request[] sends = new Request[n];
        for (int r = 0; r < n; r++) {
            sends[r] = inter.Isend(new int[] {rank * 1000 + r}, 0, 1, MPI.INT, r, TAG);
        }
        for (int r = 0; r < n; r++) {
            int[] got = new int[1];
            Status status = inter.Recv(got, 0, 1, MPI.INT, r, TAG);
            Check.equal(remoteGroup()[r] * 1000L + inter.Rank(), got[0], "value from remote rank " + r);
            Check.equal(r, status.source, "source of the message from remote rank " + r);
        }
        Request.Waitall(sends);
    }

    /** Receives from any source see each remote rank once, as its remote rank. */
    static void anySource(Intercomm inter) {
        int n = inter.Remote_size();
        Request[] sends = new Request[n];
        for (int r = 0; r < n; r++) {
            sends[r] = inter.Isend(new int[] {inter.Rank()}, 0, 1, MPI.INT, r, TAG + 1);
        }
        boolean[] seen = new boolean[n];
        for (int i = 0; i < n; i++) {
            int[] got = new int[1];
            Status status = inter.Recv(got, 0, 1, MPI.INT, MPI.ANY_SOURCE, TAG + 1);
            Check.equal(got[0], status.source, "ANY_SOURCE: the source is the sender's remote rank");
            Check.that(!seen[status.source], "ANY_SOURCE: remote rank " + status.source + " twice");
            seen[status.source] = true;
        }
        Request.Waitall(sends);
    }

    /** The evens pass {@code evensHigh}, the odds its opposite: the low group comes first. */
    static void merge(Intercomm inter, boolean evensHigh) {
        Intracomm merged = inter.Merge(even == evensHigh);
        int[] first = evensHigh ? odds : evens;
        int[] second = evensHigh ? evens : odds;
        int[] expected = Arrays.copyOf(first, size);
        System.arraycopy(second, 0, expected, first.length, second.length);
        int[] inWorld = Group.Translate_ranks(merged.Group(), identity(size), world.Group());
        Check.that(Arrays.equals(expected, inWorld), "Merge(evens high " + evensHigh + ") order "
                + Arrays.toString(inWorld));
        int mergedRank = 0;
        while (expected[mergedRank] != rank) {
            mergedRank++;
        }
        Check.equal(mergedRank, merged.Rank(), "rank in the merged communicator");
        int[] sum = new int[1];
        merged.Allreduce(new int[] {rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        Check.equal(size * (size - 1) / 2, sum[0], "Allreduce on the merged communicator");
        merged.Free();
    }

    /**
     * Every process sends to every remote rank on the duplicate first, then on the original, and receives from any
     * source on both: had the two shared a context, the original's receives (posted first) would take the
     * duplicate's messages.
     */
    static void dupIsIsolated(Intercomm inter) {
        Intercomm copy = inter.Dup();
        Check.equal(MPI.CONGRUENT, Comm.Compare(inter, copy), "Compare with the duplicate");
        Check.equal(inter.Remote_size(), copy.Remote_size(), "Remote_size of the duplicate");
        int n = inter.Remote_size();
        int[] fromInter = new int[n];
        int[] fromCopy = new int[n];
        Request[] all = new Request[4 * n];
        for (int r = 0; r < n; r++) {
            all[r] = inter.Irecv(fromInter, r, 1, MPI.INT, MPI.ANY_SOURCE, TAG);
            all[n + r] = copy.Irecv(fromCopy, r, 1, MPI.INT, MPI.ANY_SOURCE, TAG);
        }
        for (int r = 0; r < n; r++) {
            all[2 * n + r] = copy.Isend(new int[] {-1 - rank}, 0, 1, MPI.INT, r, TAG);
            all[3 * n + r] = inter.Isend(new int[] {rank}, 0, 1, MPI.INT, r, TAG);
        }
        Status[] done = Request.Waitall(all);
        for (int r = 0; r < n; r++) {
            Check.equal(remoteGroup()[done[r].source], fromInter[r], "the original's message on the original");
            Check.equal(-1 - remoteGroup()[done[n + r].source], fromCopy[r], "the duplicate's message on the duplicate");
        }
        copy.Free();
    }

    static void barrierWaitsForTheOtherGroup(Intercomm inter) {
        barrierAfterTheSendsOf(inter, true);
        barrierAfterTheSendsOf(inter, false);
    }

    /**
     * The receiving group posts a receive from every remote rank and enters the barrier at once; the sending group
     * first satisfies those receives with synchronous sends, which return only once matched. Leaving the barrier,
     * a receiver must find all its receives complete, as every sender finished before entering.
     */
    private static void barrierAfterTheSendsOf(Intercomm inter, boolean evensSend) {
        int n = inter.Remote_size();
        if (even == evensSend) {
            for (int r = 0; r < n; r++) {
                inter.Ssend(new int[] {rank}, 0, 1, MPI.INT, r, TAG + 2);
            }
            inter.Barrier();
            return;
        }
        Request[] receives = new Request[n];
        int[] got = new int[n];
        for (int r = 0; r < n; r++) {
            receives[r] = inter.Irecv(got, r, 1, MPI.INT, r, TAG + 2);
        }
        inter.Barrier();
        for (int r = 0; r < n; r++) {
            Check.that(receives[r].Test() != null, "receive from remote rank " + r + " incomplete after the Barrier");
            Check.equal(remoteGroup()[r], got[r], "value sent before the Barrier by remote rank " + r);
        }
    }

    /** The evens' last rank broadcasts to the odds, then the odds' leader to the evens: ints, a large block, objects. */
    static void bcastBothWays(Intercomm inter) {
        bcastFrom(inter, true, evens.length - 1, 3);
        bcastFrom(inter, false, 0, 100_000);
        String[] words = {"inter", "comm"};
        String[] received = new String[2];
        if (even) {
            inter.Bcast(inter.Rank() == 0 ? words : received, 0, 2, MPI.OBJECT,
                    inter.Rank() == 0 ? MPI.ROOT : MPI.PROC_NULL);
        } else {
            inter.Bcast(received, 0, 2, MPI.OBJECT, 0);
            Check.that(Arrays.equals(words, received), "objects broadcast: " + Arrays.toString(received));
        }
    }

    private static void bcastFrom(Intercomm inter, boolean fromEvens, int root, int count) {
        int[] data = new int[count];
        boolean rootGroup = even == fromEvens;
        if (rootGroup) {
            if (inter.Rank() == root) {
                Arrays.setAll(data, i -> i * 7 + root);
            }
            inter.Bcast(data, 0, count, MPI.INT, inter.Rank() == root ? MPI.ROOT : MPI.PROC_NULL);
            if (inter.Rank() != root) {
                Check.that(Arrays.stream(data).allMatch(v -> v == 0), "a PROC_NULL process's buffer was written");
            }
            return;
        }
        inter.Bcast(data, 0, count, MPI.INT, root);
        for (int i = 0; i < count; i++) {
            Check.equal(i * 7L + root, data[i], "item " + i + " of " + count + " broadcast from remote rank " + root);
        }
    }

    static void errors(Intercomm inter, Intracomm half) {
        int remoteLeader = even ? 1 : 0;
        Check.raises(MPI.ERR_RANK, "local_leader outside local_comm",
                () -> world.Create_intercomm(half, half.Size(), remoteLeader, TAG));
        // each leader names itself as the remote leader: found by the leader, raised in its whole group
        Check.raises(MPI.ERR_RANK, "a remote leader in the local group",
                () -> world.Create_intercomm(half, 0, even ? 0 : 1, TAG));
        Check.raises(MPI.ERR_COMM, "an intercommunicator as local_comm",
                () -> world.Create_intercomm(inter, 0, remoteLeader, TAG));
        Check.raises(MPI.ERR_ROOT, "a Bcast root outside the remote group",
                () -> inter.Bcast(new int[1], 0, 1, MPI.INT, inter.Remote_size()));
        Check.raises(MPI.ERR_ROOT, "MPI.ANY_SOURCE as a Bcast root",
                () -> inter.Bcast(new int[1], 0, 1, MPI.INT, MPI.ANY_SOURCE));
        Check.raises(MPI.ERR_RANK, "a destination outside the remote group",
                () -> inter.Send(new int[1], 0, 1, MPI.INT, inter.Remote_size(), TAG));
        // the failed calls left both groups in step: a collective still works
        inter.Barrier();
    }

    /** After Free the intercommunicator is unusable; a new one between the same groups works. */
    static void freeThenAgain(Intercomm inter, Intracomm half) {
        inter.Free();
        Check.raises(MPI.ERR_COMM, "Remote_size after Free", inter::Remote_size);
        Check.raises(MPI.ERR_COMM, "Send after Free", () -> inter.Send(new int[1], 0, 1, MPI.INT, 0, TAG));
        Intercomm again = world.Create_intercomm(half, 0, even ? 1 : 0, TAG);
        pointToPointBothWays(again);
        again.Free();
    }
}
