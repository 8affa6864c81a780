package dev.mpj.runtime.coll;

import dev.mpj.api.Operation;

import java.nio.ByteBuffer;

/**
 * Van de Geijn's broadcast for long messages: the root scatters the message in P pieces down a binomial
 * tree, then the members allgather the pieces (recursive doubling or ring). About 2·n bytes cross each
 * link instead of log2(P)·n.
 */
final class ScatterAllgatherBcast {
    private ScatterAllgatherBcast() {
    }

    /** {@code peers} must be rooted at the root; {@code ring} picks the allgather phase. */
    static void run(Peers peers, ByteBuffer data, boolean ring) {
        int p = peers.size();
        int[] start = pieces(data.remaining(), p);
        scatter(peers, data, start);
        if (ring) {
            RingAllgather.run(peers, RingAllgather.blocks(data, start));
        } else {
            RecursiveDoublingAllgather.run(peers, data, start);
        }
    }

    /** Piece v is bytes [start[v], start[v + 1]): ⌈n / P⌉ bytes each, the last ones shorter or empty. */
    static int[] pieces(int n, int p) {
        long piece = ((long) n + p - 1) / p;
        int[] start = new int[p + 1];
        for (int i = 0; i <= p; i++) {
            start[i] = (int) Math.min(i * piece, n);
        }
        return start;
    }

    /** Binomial scatter of the pieces: afterwards member v holds piece v (and the root all of them). */
    private static void scatter(Peers peers, ByteBuffer data, int[] start) {
        int p = peers.size();
        int v = peers.me();
        int mask = 1;
        while (mask < p) {
            if ((v & mask) != 0) {
                // the subtree of v is [v, v + lowbit(v)): receive its pieces
                int end = start[Math.min(v + mask, p)];
                if (end > start[v]) {
                    peers.receive(v - mask, Bytes.range(data, start[v], end));
                }
                break;
            }
            mask <<= 1;
        }
        Operation[] sends = new Operation[Integer.numberOfTrailingZeros(mask) + 1];
        int n = 0;
        for (mask >>= 1; mask > 0; mask >>= 1) {
            int child = v + mask;
            if (child < p) {
                int end = start[Math.min(child + mask, p)];
                if (end > start[child]) {
                    sends[n++] = peers.startSend(child, Bytes.range(data, start[child], end));
                }
            }
        }
        peers.waitAll(sends);
    }
}
