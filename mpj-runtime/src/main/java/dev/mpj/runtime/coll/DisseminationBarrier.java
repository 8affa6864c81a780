package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;

import java.nio.ByteBuffer;

/**
 * The dissemination barrier (Hensgen, Finkel, Manber): in round k each rank signals rank + 2^k and waits
 * for rank − 2^k, so after ⌈log2 P⌉ rounds everyone has heard from everyone, for any P.
 */
public final class DisseminationBarrier {
    /** Tag on the collective context; collectives never share a context with user point-to-point traffic. */
    static final int TAG = CollectiveKind.BARRIER.tag();
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private DisseminationBarrier() {
    }

    public static void run(MpiBackend backend, CommSpec comm) {
        int p = comm.size();
        int me = comm.rank();
        int[] world = comm.worldRanks();
        for (int k = 1; k < p; k <<= 1) {
            int to = world[(me + k) % p];
            int from = world[(me - k + p) % p];
            Operation recv = backend.receive(EMPTY, from, TAG, comm.collectiveContext());
            Operation send = backend.send(EMPTY, to, TAG, comm.collectiveContext(), SendMode.STANDARD);
            backend.await(() -> recv.isComplete() && send.isComplete());
        }
    }
}
