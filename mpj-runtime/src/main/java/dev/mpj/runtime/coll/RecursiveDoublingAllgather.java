package dev.mpj.runtime.coll;

import java.nio.ByteBuffer;

/**
 * Recursive-doubling allgather: in step k members 2^k apart swap everything they hold, so log2(P) steps
 * suffice. For P not a power of two the first 2·r members (r = P − 2^⌊log2 P⌋) pair up first: each even one
 * hands its block to the odd one above it and sits out, and gets the full result back at the end. Since a
 * pair's blocks are adjacent, every exchange is one contiguous range of the buffer.
 */
final class RecursiveDoublingAllgather {
    private RecursiveDoublingAllgather() {
    }

    /** Block v is bytes [start[v], start[v + 1]) of {@code buffer}; the caller's is filled. */
    static void run(Peers peers, ByteBuffer buffer, int[] start) {
        int p = peers.size();
        int v = peers.me();
        int pof2 = Bytes.floorPowerOfTwo(p);
        int rem = p - pof2;
        int newRank;
        if (v < 2 * rem) {
            if (v % 2 == 0) {
                peers.send(v + 1, Bytes.range(buffer, start[v], start[v + 1]));
                newRank = -1;
            } else {
                peers.receive(v - 1, Bytes.range(buffer, start[v - 1], start[v]));
                newRank = v / 2;
            }
        } else {
            newRank = v - rem;
        }
        if (newRank >= 0) {
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int base = newRank & ~(mask - 1);
                int partnerBase = base ^ mask;
                int partner = memberOf(newRank ^ mask, rem);
                peers.exchange(partner, held(buffer, start, base, mask, rem),
                        partner, held(buffer, start, partnerBase, mask, rem));
            }
        }
        if (v < 2 * rem) {
            ByteBuffer all = Bytes.range(buffer, 0, start[p]);
            if (v % 2 == 0) {
                peers.receive(v + 1, all);
            } else {
                peers.send(v - 1, all);
            }
        }
    }

    /** The blocks of new ranks [base, base + count): one contiguous range. */
    private static ByteBuffer held(ByteBuffer buffer, int[] start, int base, int count, int rem) {
        return Bytes.range(buffer, start[firstBlock(base, rem)], start[firstBlock(base + count, rem)]);
    }

    /** The first original block that new rank k holds (new ranks below rem hold two). */
    static int firstBlock(int newRank, int rem) {
        return newRank < rem ? 2 * newRank : newRank + rem;
    }

    /** The member playing new rank k. */
    static int memberOf(int newRank, int rem) {
        return newRank < rem ? 2 * newRank + 1 : newRank + rem;
    }
}
