package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.api.MpiBackend;

import java.nio.ByteBuffer;

/**
 * The dissemination barrier (Hensgen, Finkel, Manber): in round k each member signals member + 2^k and waits
 * for member − 2^k, so after ⌈log2 P⌉ rounds everyone has heard from everyone, for any P.
 */
public final class DisseminationBarrier {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private DisseminationBarrier() {
    }

    /** A barrier over every member of {@code comm}, on its collective context. */
    public static void run(MpiBackend backend, CommSpec comm) {
        run(Peers.of(backend, comm, CollectiveKind.BARRIER));
    }

    /** The blocking barrier: each round's exchange on the calling thread, with no schedule to build. */
    static void run(Peers peers) {
        int p = peers.size();
        int me = peers.me();
        for (int k = 1; k < p; k <<= 1) {
            peers.exchange(signalled(me, k, p), EMPTY, heardFrom(me, k, p), EMPTY);
        }
    }

    /** Appends the barrier's rounds to {@code s}. */
    static Schedule rounds(Schedule s) {
        int p = s.peers().size();
        int me = s.peers().me();
        for (int k = 1; k < p; k <<= 1) {
            s.then(new Schedule.Exchange(heardFrom(me, k, p), EMPTY, signalled(me, k, p), EMPTY));
        }
        return s;
    }

    private static int signalled(int me, int step, int p) {
        return (me + step) % p;
    }

    private static int heardFrom(int me, int step, int p) {
        return (me - step + p) % p;
    }
}
