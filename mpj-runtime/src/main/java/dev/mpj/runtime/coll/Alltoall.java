package dev.mpj.runtime.coll;

import java.nio.ByteBuffer;

/** The three alltoall algorithms over contiguous buffers of P equal blocks. */
final class Alltoall {
    private Alltoall() {
    }

    /**
     * All receives and sends posted at once (MPICH's medium-message choice); for two members, one exchange, with
     * the member's own block copied while it is in flight.
     */
    static void scattered(Peers peers, ByteBuffer send, ByteBuffer recv) {
        if (peers.size() == 2) {
            int block = send.remaining() / 2;
            int me = peers.me();
            int other = 1 - me;
            peers.exchangeCopying(other, Bytes.range(send, other * block, (other + 1) * block),
                    other, Bytes.range(recv, other * block, (other + 1) * block),
                    Bytes.range(send, me * block, (me + 1) * block), Bytes.range(recv, me * block, (me + 1) * block));
            return;
        }
        int[] start = equalBlocks(peers.size(), send.remaining() / peers.size());
        LinearV.alltoallv(peers, RingAllgather.blocks(send, start), RingAllgather.blocks(recv, start));
    }

    /**
     * Pairwise exchange for long messages: P − 1 steps, in step i each member exchanges with one partner
     * (rank XOR i when P is a power of two, else sends to rank + i and receives from rank − i), so only
     * one message per member is in flight.
     */
    static void pairwise(Peers peers, ByteBuffer send, ByteBuffer recv) {
        int p = peers.size();
        int me = peers.me();
        ByteBuffer[] out = RingAllgather.blocks(send, equalBlocks(p, send.remaining() / p));
        ByteBuffer[] in = RingAllgather.blocks(recv, equalBlocks(p, send.remaining() / p));
        if (p == 1) {
            Bytes.copy(out[0], in[0]);
            return;
        }
        boolean xor = Bytes.isPowerOfTwo(p);
        for (int i = 1; i < p; i++) {
            int dst = xor ? me ^ i : (me + i) % p;
            int src = xor ? me ^ i : (me - i + p) % p;
            // the member's own block is copied during the first exchange
            peers.exchangeCopying(dst, out[dst], src, in[src], i == 1 ? out[me] : null, in[me]);
        }
    }

    /**
     * Bruck's algorithm for short blocks and many members: ⌈log2 P⌉ steps; in step k every member sends
     * to rank + 2^k, in one message, all the blocks whose (rotated) index has bit k set. Each block
     * travels several hops, so it pays only when latency dominates.
     */
    static void bruck(Peers peers, ByteBuffer send, ByteBuffer recv) {
        int p = peers.size();
        int me = peers.me();
        int block = send.remaining() / p;
        // rotate so that index i holds the block for rank me + i
        int half = (p / 2) * block;
        ByteBuffer scratch = Bytes.scratch(p * block + 2 * half);
        ByteBuffer tmp = Bytes.range(scratch, 0, p * block);
        Bytes.copy(Bytes.range(send, me * block, p * block), tmp, 0);
        Bytes.copy(Bytes.range(send, 0, me * block), tmp, (p - me) * block);
        ByteBuffer packed = Bytes.range(scratch, p * block, p * block + half);
        ByteBuffer arrived = Bytes.range(scratch, p * block + half, p * block + 2 * half);
        for (int bit = 1; bit < p; bit <<= 1) {
            int count = 0;
            for (int i = bit; i < p; i++) {
                if ((i & bit) != 0) {
                    Bytes.copy(Bytes.range(tmp, i * block, (i + 1) * block), packed, count * block);
                    count++;
                }
            }
            peers.exchange((me + bit) % p, Bytes.range(packed, 0, count * block),
                    (me - bit + p) % p, Bytes.range(arrived, 0, count * block));
            count = 0;
            for (int i = bit; i < p; i++) {
                if ((i & bit) != 0) {
                    Bytes.copy(Bytes.range(arrived, count * block, (count + 1) * block), tmp, i * block);
                    count++;
                }
            }
        }
        // index i now holds the block that rank me − i sent to me
        for (int i = 0; i < p; i++) {
            Bytes.copy(Bytes.range(tmp, i * block, (i + 1) * block), recv, ((me - i + p) % p) * block);
        }
    }

    static int[] equalBlocks(int p, int block) {
        int[] start = new int[p + 1];
        for (int i = 0; i <= p; i++) {
            start[i] = i * block;
        }
        return start;
    }
}
