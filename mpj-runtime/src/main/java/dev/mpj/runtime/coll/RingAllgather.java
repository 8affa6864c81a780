package dev.mpj.runtime.coll;

import java.nio.ByteBuffer;

/**
 * Ring allgather: in P − 1 steps every member passes to its right neighbour the block it received in the
 * step before. Each link carries every block once; the choice for long messages.
 */
final class RingAllgather {
    private RingAllgather() {
    }

    /** {@code blocks[v]} is member v's block; the caller's is filled, the others are filled here. */
    static void run(Peers peers, ByteBuffer[] blocks) {
        rounds(new Schedule(peers), blocks).run();
    }

    /** Appends the ring's P − 1 rounds to {@code s}: the same blocks as {@link #run}. */
    static Schedule rounds(Schedule s, ByteBuffer[] blocks) {
        int p = s.peers().size();
        int v = s.peers().me();
        int right = (v + 1) % p;
        int left = (v - 1 + p) % p;
        for (int step = 0; step < p - 1; step++) {
            ByteBuffer out = blocks[(v - step + p) % p];
            ByteBuffer in = blocks[(v - step - 1 + p) % p];
            s.then(new Schedule.Exchange(left, in, right, out));
        }
        return s;
    }

    /** The blocks of a contiguous buffer: block v is bytes [start[v], start[v + 1]). */
    static ByteBuffer[] blocks(ByteBuffer buffer, int[] start) {
        ByteBuffer[] blocks = new ByteBuffer[start.length - 1];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = Bytes.range(buffer, start[i], start[i + 1]);
        }
        return blocks;
    }
}
