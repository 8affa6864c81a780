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

    static void run(Peers peers) {
        int p = peers.size();
        int me = peers.me();
        for (int k = 1; k < p; k <<= 1) {
            peers.waitAll(peers.startReceive((me - k + p) % p, EMPTY), peers.startSend((me + k) % p, EMPTY));
        }
    }
}
