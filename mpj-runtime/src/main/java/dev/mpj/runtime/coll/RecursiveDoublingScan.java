package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;

import java.nio.ByteBuffer;

/**
 * Inclusive scan by recursive doubling (MPICH's): in step k members 2^k apart swap the reduction of
 * their whole group so far; a member folds what comes from below into its prefix as well. Every
 * combination puts the lower ranks first, so non-commutative operations are safe. Any P.
 */
final class RecursiveDoublingScan {
    private RecursiveDoublingScan() {
    }

    static void run(Peers peers, ByteBuffer send, ByteBuffer recv, Reduction op) {
        int p = peers.size();
        int me = peers.me();
        int n = send.remaining();
        Bytes.copy(send, recv);
        ByteBuffer group = Bytes.allocate(n);
        Bytes.copy(send, group);
        ByteBuffer arrived = Bytes.allocate(n);
        for (int mask = 1; mask < p; mask <<= 1) {
            int partner = me ^ mask;
            if (partner >= p) {
                continue;
            }
            peers.exchange(partner, group, partner, arrived);
            if (partner < me) {
                op.apply(arrived, recv);
                op.apply(arrived, group);
            } else if (op.isCommutative()) {
                op.apply(arrived, group);
            } else {
                op.apply(group, arrived);
                ByteBuffer t = group;
                group = arrived;
                arrived = t;
            }
        }
    }
}
