package mpi;

import java.util.Arrays;

/**
 * How two disjoint groups agree on an intercommunicator, for {@link Intracomm#Create_intercomm},
 * {@link Intercomm#Dup} and {@link Intercomm#Merge}. Each group ANDs its members' context bitmaps (as
 * {@link Intracomm#Split} does); the two leaders swap a description of their group (members, that bitmap, a
 * flag); each leader takes the lowest pair free in both bitmaps, and broadcasts the outcome, or the error it met,
 * to its group. Both leaders compute from the same two descriptions, so both groups agree on the pair and on
 * every error found after the swap.
 */
final class LeaderHandshake {
    /** Broadcast header: error class, pair, the leader's flag, length of the body that follows. */
    private static final int HEADER = 4;

    private LeaderHandshake() {
    }

    /** One group as the other learns it: its members (world ranks), the pairs free in all of them, a flag. */
    record Side(int[] members, long[] freeBits, boolean flag) {
        int[] encoded() {
            int[] ints = new int[2 + members.length + 2 * freeBits.length];
            ints[0] = flag ? 1 : 0;
            ints[1] = members.length;
            System.arraycopy(members, 0, ints, 2, members.length);
            int at = 2 + members.length;
            for (long word : freeBits) {
                ints[at++] = (int) word;
                ints[at++] = (int) (word >>> 32);
            }
            return ints;
        }

        static Side decoded(int[] ints) {
            int n = ints[1];
            long[] bits = new long[(ints.length - 2 - n) / 2];
            for (int i = 0, at = 2 + n; i < bits.length; i++, at += 2) {
                bits[i] = (ints[at] & 0xFFFF_FFFFL) | ((long) ints[at + 1] << 32);
            }
            return new Side(Arrays.copyOfRange(ints, 2, 2 + n), bits, ints[0] == 1);
        }
    }

    /** What every member of a group learns: the agreed pair, the remote group, and its own leader's flag. */
    record Outcome(int pair, Side remote, boolean localFlag) {
    }

    /** How the leader swaps its group's description for the remote one; may raise errors it finds first. */
    interface Swap {
        int[] with(int[] mine);
    }

    /**
     * Runs the handshake in one group: collective over {@code local}, whose rank {@code leader} calls
     * {@code swap}. Every member returns the same outcome or raises the same error.
     */
    static Outcome agree(String call, Intracomm local, int leader, boolean flag, Swap swap) {
        long[] common = local.commonFreeBits();
        int[] header = new int[HEADER];
        int[] body = null;
        if (local.Rank() == leader) {
            try {
                int[] members = local.spec().worldRanks();
                Side remote = Side.decoded(swap.with(new Side(members, common, flag).encoded()));
                checkDisjoint(call, members, remote.members());
                long[] both = common.clone();
                for (int i = 0; i < both.length; i++) {
                    both[i] &= remote.freeBits()[i];
                }
                int pair = ContextIds.agreedPair(call, both, "every process of both groups");
                body = remote.encoded();
                header = new int[] {MPI.SUCCESS, pair, flag ? 1 : 0, body.length};
            } catch (MPIException e) {
                body = String.valueOf(e.getMessage()).chars().toArray();
                header = new int[] {e.getErrorClass(), -1, 0, body.length};
            }
        }
        local.Bcast(header, 0, HEADER, MPI.INT, leader);
        if (body == null) {
            body = new int[header[3]];
        }
        local.Bcast(body, 0, body.length, MPI.INT, leader);
        if (header[0] != MPI.SUCCESS) {
            throw new MPIException(header[0], new String(body, 0, body.length));
        }
        return new Outcome(header[1], Side.decoded(body), header[2] == 1);
    }

    /**
     * Swaps {@code mine} for what rank {@code peer} of {@code via} sends under {@code tag}: sent without waiting,
     * then the reply probed for its length, so both leaders may call it at once.
     */
    static int[] swap(Comm via, int peer, int tag, int[] mine) {
        Request sent = via.Isend(mine, 0, mine.length, MPI.INT, peer, tag);
        int[] theirs = new int[via.Probe(peer, tag).Get_count(MPI.INT)];
        via.Recv(theirs, 0, theirs.length, MPI.INT, peer, tag);
        sent.Wait();
        return theirs;
    }

    private static void checkDisjoint(String call, int[] local, int[] remote) {
        int[] sorted = local.clone();
        Arrays.sort(sorted);
        for (int w : remote) {
            if (Arrays.binarySearch(sorted, w) >= 0) {
                throw new MPIException(MPI.ERR_GROUP, call + ": world rank " + w
                        + " is in both groups; the groups of an intercommunicator must be disjoint");
            }
        }
    }
}
