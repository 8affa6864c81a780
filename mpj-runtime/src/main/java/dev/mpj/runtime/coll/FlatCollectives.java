package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;
import dev.mpj.runtime.config.CollectiveAlgorithms;

import java.nio.ByteBuffer;

/**
 * The collectives over one group of {@link Peers}, each by the algorithm {@link CollectiveTuning} picks for the
 * group's size and the message length. {@link Collectives} runs them over a whole communicator; the node-aware
 * algorithms run them as their steps, within a node and among the node leaders.
 */
final class FlatCollectives {
    private final CollectiveTuning tuning;

    FlatCollectives(CollectiveTuning tuning) {
        this.tuning = tuning;
    }

    /** {@code peers} rooted at the broadcast's root. */
    void bcast(Peers peers, ByteBuffer data) {
        if (peers.size() == 1 || data.remaining() == 0) {
            return;
        }
        switch (tuning.bcast(data.remaining(), peers.size())) {
            case SCATTER_DOUBLING -> ScatterAllgatherBcast.run(peers, data, false);
            case SCATTER_RING -> ScatterAllgatherBcast.run(peers, data, true);
            default -> BinomialBcast.run(peers, data);
        }
    }

    /** Block v is bytes [start[v], start[v + 1]) of {@code buffer}; the caller's block is filled. */
    void allgather(Peers peers, ByteBuffer buffer, int[] start) {
        int p = peers.size();
        if (p == 1 || start[p] == 0) {
            return;
        }
        if (tuning.allgather(start[p], p) == CollectiveAlgorithms.Allgather.RING) {
            RingAllgather.run(peers, RingAllgather.blocks(buffer, start));
        } else {
            RecursiveDoublingAllgather.run(peers, buffer, start);
        }
    }

    void allreduce(Peers peers, ByteBuffer send, ByteBuffer recv, Reduction op) {
        int n = send.remaining();
        if (peers.size() == 1 || n == 0) {
            Bytes.copy(send, recv);
            return;
        }
        switch (tuning.allreduce(n, peers.size(), op)) {
            case RABENSEIFNER -> Allreduce.rabenseifner(peers, send, recv, op);
            case RING -> Allreduce.ring(peers, send, recv, op);
            default -> Allreduce.recursiveDoubling(peers, send, recv, op);
        }
    }

    /** {@code peers} numbered by rank; {@code recv} is written at the root only. */
    void reduce(Peers peers, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        BinomialReduce.run(peers, send, recv, op, root);
    }

    void barrier(Peers peers) {
        DisseminationBarrier.run(peers);
    }
}
