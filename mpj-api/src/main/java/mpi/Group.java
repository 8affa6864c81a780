package mpi;

import java.util.Arrays;

/**
 * An ordered set of processes: rank i of the group is its i-th member. Groups are local objects;
 * making one never communicates. They come from {@link Comm#Group()} and the set operations here,
 * and turn into communicators through {@link Intracomm#Create(Group)}.
 *
 * <p>Errors: {@code ERR_GROUP} for a null or freed group, {@code ERR_ARG} for a missing rank array
 * or a malformed range, {@code ERR_RANK} for a rank outside the group or given twice.
 */
public class Group {
    /** Members as world ranks, in group rank order. */
    private final int[] members;
    /** The calling process's world rank, or -1 where it is not known (the empty group). */
    private final int self;
    private RankMap lookup;
    private boolean freed;

    Group(int[] members, int self) {
        this.members = members;
        this.self = self;
    }

    /** Members as world ranks, in rank order (not copied), for a call given this group; ERR_GROUP if freed. */
    final int[] usableMembers(String call) {
        checked(call, this, "group");
        return members;
    }

    /** Number of processes in the group. */
    public int Size() {
        return checked("Group.Size").members.length;
    }

    /** The rank of the calling process in the group, or {@link MPI#UNDEFINED} if it is not a member. */
    public int Rank() {
        checked("Group.Rank");
        return self < 0 ? MPI.UNDEFINED : rankOf(self);
    }

    /** A group of the members at {@code ranks}, in that order. */
    public Group Incl(int[] ranks) {
        String call = "Group.Incl";
        checked(call);
        return included(call, ranks);
    }

    /** This group without the members at {@code ranks}, in the order of this group. */
    public Group Excl(int[] ranks) {
        String call = "Group.Excl";
        checked(call);
        return derived(without(checkRanks(call, ranks)));
    }

    /**
     * {@link #Incl} of the ranks in {@code ranges}, each a triplet {first, last, stride} meaning first,
     * first + stride, ... up to last (a negative stride counts down). As MPI says, the ranks generated
     * must be ranks of the group, not {@code last} itself: {@code {0, 7, 4}} in a group of 6 is {0, 4}.
     */
    public Group Range_incl(int[][] ranges) {
        String call = "Group.Range_incl";
        checked(call);
        return included(call, expand(call, ranges));
    }

    /** {@link #Excl} of the ranks in {@code ranges} (triplets as in {@link #Range_incl}). */
    public Group Range_excl(int[][] ranges) {
        String call = "Group.Range_excl";
        checked(call);
        return derived(without(checkRanks(call, expand(call, ranges))));
    }

    private Group included(String call, int[] ranks) {
        checkRanks(call, ranks);
        int[] chosen = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            chosen[i] = members[ranks[i]];
        }
        return derived(chosen);
    }

    /** Frees the group; using it afterwards raises {@code ERR_GROUP}. Freeing {@link MPI#GROUP_EMPTY} does nothing. */
    public void free() {
        checked("Group.free");
        if (this != MPI.GROUP_EMPTY) {
            freed = true;
        }
    }

    /** The members of {@code group1}, then those of {@code group2} not in {@code group1}. */
    public static Group Union(Group group1, Group group2) {
        String call = "Group.Union";
        checked(call, group1, "group1");
        checked(call, group2, "group2");
        int[] union = Arrays.copyOf(group1.members, group1.members.length + group2.members.length);
        int n = group1.members.length;
        for (int w : group2.members) {
            if (!group1.contains(w)) {
                union[n++] = w;
            }
        }
        return group1.combined(group2, Arrays.copyOf(union, n));
    }

    /** The members of {@code group1} that are also in {@code group2}, in the order of {@code group1}. */
    public static Group Intersection(Group group1, Group group2) {
        String call = "Group.Intersection";
        checked(call, group1, "group1");
        checked(call, group2, "group2");
        return group1.combined(group2, group1.filtered(group2, true));
    }

    /** The members of {@code group1} that are not in {@code group2}, in the order of {@code group1}. */
    public static Group Difference(Group group1, Group group2) {
        String call = "Group.Difference";
        checked(call, group1, "group1");
        checked(call, group2, "group2");
        return group1.combined(group2, group1.filtered(group2, false));
    }

    /**
     * The ranks in {@code group2} of the processes at {@code ranks1} in {@code group1}:
     * {@link MPI#UNDEFINED} for those not in {@code group2}, {@link MPI#PROC_NULL} for {@code PROC_NULL}.
     */
    public static int[] Translate_ranks(Group group1, int[] ranks1, Group group2) {
        String call = "Group.Translate_ranks";
        checked(call, group1, "group1");
        checked(call, group2, "group2");
        if (ranks1 == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": ranks1 is null");
        }
        int[] translated = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r == MPI.PROC_NULL) {
                translated[i] = MPI.PROC_NULL;
                continue;
            }
            group1.checkRank(call, "ranks1[" + i + "]", r);
            translated[i] = group2.rankOf(group1.members[r]);
        }
        return translated;
    }

    /**
     * {@link MPI#IDENT} if the groups have the same members in the same order, {@link MPI#SIMILAR} if
     * the same members in another order, else {@link MPI#UNEQUAL}.
     */
    public static int Compare(Group group1, Group group2) {
        String call = "Group.Compare";
        checked(call, group1, "group1");
        checked(call, group2, "group2");
        return compareMembers(group1.members, group2.members);
    }

    /** {@link #Compare} on member lists (world ranks, each distinct). */
    static int compareMembers(int[] members1, int[] members2) {
        if (Arrays.equals(members1, members2)) {
            return MPI.IDENT;
        }
        if (members1.length != members2.length) {
            return MPI.UNEQUAL;
        }
        int[] sorted1 = members1.clone();
        int[] sorted2 = members2.clone();
        Arrays.sort(sorted1);
        Arrays.sort(sorted2);
        return Arrays.equals(sorted1, sorted2) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    @Override
    public String toString() {
        return freed ? "freed group" : "group of " + members.length + " " + Arrays.toString(members);
    }

    // ---- helpers ----

    /** The group rank of a world rank, or UNDEFINED. */
    final int rankOf(int worldRank) {
        if (lookup == null) {
            lookup = RankMap.of(members);
        }
        return lookup.toComm(worldRank);
    }

    private boolean contains(int worldRank) {
        return rankOf(worldRank) != MPI.UNDEFINED;
    }

    private Group derived(int[] chosen) {
        return new Group(chosen, self);
    }

    /** A group made from two: it knows the caller's world rank if either does. */
    private Group combined(Group other, int[] chosen) {
        return new Group(chosen, self >= 0 ? self : other.self);
    }

    private int[] filtered(Group other, boolean keepCommon) {
        int[] kept = new int[members.length];
        int n = 0;
        for (int w : members) {
            if (other.contains(w) == keepCommon) {
                kept[n++] = w;
            }
        }
        return Arrays.copyOf(kept, n);
    }

    private int[] without(boolean[] dropped) {
        int[] kept = new int[members.length];
        int n = 0;
        for (int r = 0; r < members.length; r++) {
            if (!dropped[r]) {
                kept[n++] = members[r];
            }
        }
        return Arrays.copyOf(kept, n);
    }

    private Group checked(String call) {
        if (freed) {
            throw new MPIException(MPI.ERR_GROUP, call + ": the group has been freed");
        }
        return this;
    }

    private static void checked(String call, Group group, String name) {
        if (group == null) {
            throw new MPIException(MPI.ERR_GROUP, call + ": " + name + " is null");
        }
        if (group.freed) {
            throw new MPIException(MPI.ERR_GROUP, call + ": " + name + " has been freed");
        }
    }

    private void checkRank(String call, String what, int rank) {
        if (rank < 0 || rank >= members.length) {
            throw new MPIException(MPI.ERR_RANK, call + ": " + what + " = " + rank + " is not a rank of the group (size "
                    + members.length + ")");
        }
    }

    /** Checks that {@code ranks} are ranks of this group, each once; returns which ranks were named. */
    private boolean[] checkRanks(String call, int[] ranks) {
        if (ranks == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": ranks is null");
        }
        boolean[] named = new boolean[members.length];
        for (int i = 0; i < ranks.length; i++) {
            checkRank(call, "ranks[" + i + "]", ranks[i]);
            if (named[ranks[i]]) {
                throw new MPIException(MPI.ERR_RANK, call + ": rank " + ranks[i] + " is given more than once");
            }
            named[ranks[i]] = true;
        }
        return named;
    }

    /**
     * The ranks the triplets of {@code ranges} stand for, in order; checks each triplet's shape and
     * its first rank (the callers check the others, so a {@code last} the stride never reaches may lie
     * outside the group). Stops after one more rank than the group has, since then a rank repeats and Incl or Excl
     * reports it.
     */
    private int[] expand(String call, int[][] ranges) {
        if (ranges == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": ranges is null");
        }
        for (int i = 0; i < ranges.length; i++) {
            int[] range = ranges[i];
            if (range == null || range.length != 3) {
                throw new MPIException(MPI.ERR_ARG, call + ": ranges[" + i + "] must be {first, last, stride}, was "
                        + Arrays.toString(range));
            }
            checkRank(call, "ranges[" + i + "] first", range[0]);
            int stride = range[2];
            if (stride == 0 || (range[0] < range[1] && stride < 0) || (range[0] > range[1] && stride > 0)) {
                throw new MPIException(MPI.ERR_ARG, call + ": ranges[" + i + "] " + Arrays.toString(range)
                        + " has a stride that does not lead from first to last");
            }
        }
        int[] ranks = new int[members.length + 1];
        int n = 0;
        for (int[] range : ranges) {
            long last = range[1];
            long stride = range[2];
            for (long r = range[0]; n < ranks.length && (stride > 0 ? r <= last : r >= last); r += stride) {
                ranks[n++] = (int) r;
            }
        }
        return Arrays.copyOf(ranks, n);
    }
}
