package dev.mpj.runtime.coll;

import dev.mpj.api.Operation;

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
        int p = peers.size();
        int v = peers.me();
        int mask = 1;
        while (mask < p) {
            if ((v & mask) != 0) {
                peers.receive(v - mask, data);
                break;
            }
            mask <<= 1;
        }
        Operation[] sends = new Operation[Integer.numberOfTrailingZeros(mask) + 1];
        int n = 0;
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (v + mask < p) {
                sends[n++] = peers.startSend(v + mask, data);
            }
        }
        peers.waitAll(sends);
    }
}
