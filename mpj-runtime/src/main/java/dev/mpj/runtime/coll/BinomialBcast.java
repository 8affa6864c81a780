package dev.mpj.runtime.coll;

import java.nio.ByteBuffer;

/**
 * Binomial-tree broadcast: member v (numbered from the root) receives from v − lowbit(v) and forwards to
 * v + 2^k for every 2^k below lowbit(v). ⌈log2 P⌉ steps of the whole message: best for short messages.
 */
final class BinomialBcast {
    private BinomialBcast() {
    }

    /** {@code peers} must be rooted at the broadcast's root. */
    static void run(Peers peers, ByteBuffer data) {
        rounds(new Schedule(peers), data).run();
    }

    /** Appends the broadcast's rounds (receive, then forward) to {@code s}, whose members are rooted at the root. */
    static Schedule rounds(Schedule s, ByteBuffer data) {
        int p = s.peers().size();
        int v = s.peers().me();
        int mask = 1;
        while (mask < p && (v & mask) == 0) {
            mask <<= 1;
        }
        if (mask < p) {
            int parent = v - mask;
            s.then(new Schedule.Receive(parent, data));
        }
        int below = mask >> 1;
        if (below > 0 && v + 1 < p) {
            s.then(new Forward(v, p, below, data));
        }
        return s;
    }

    /** The round that forwards {@code data} to the children v + m of member v, for m from {@code below} down to 1. */
    private static final class Forward implements Schedule.Round {
        private final int v;
        private final int p;
        private final int below;
        private final ByteBuffer data;

        Forward(int v, int p, int below, ByteBuffer data) {
            this.v = v;
            this.p = p;
            this.below = below;
            this.data = data;
        }

        @Override
        public void start(Schedule s) {
            for (int m = below; m > 0; m >>= 1) {
                if (v + m < p) {
                    s.send(v + m, data);
                }
            }
        }
    }
}
