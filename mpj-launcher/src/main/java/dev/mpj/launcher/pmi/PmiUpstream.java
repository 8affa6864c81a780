package dev.mpj.launcher.pmi;

import java.util.Map;
import java.util.SortedMap;

/**
 * Where a node agent's server sends its ranks' part of a collective once all of them have entered it, instead of
 * completing it itself (decision 0036): the agent adds its children's parts and passes the whole up its tree; the
 * result comes back through {@link PmiServer#completeFence}, {@link PmiServer#completeAllgather} and
 * {@link PmiServer#completeRing}. Called on the server's thread, so implementations must not block.
 */
public interface PmiUpstream {
    /** What one rank entered the ring with. */
    record RingPart(int count, String left, String right) {
    }

    /** What one rank is answered from the ring: the counts before it, its left and right values (null: none). */
    record RingAnswer(long count, String left, String right) {
    }

    /** Every served rank is in the fence; {@code staged} is what they put since the last one. */
    void fenceEntered(Map<String, String> staged);

    /** Every served rank is in the allgather, with these values by rank. */
    void allgatherEntered(SortedMap<Integer, String> values);

    /** Every served rank is in the ring, with these parts by rank. */
    void ringEntered(SortedMap<Integer, RingPart> parts);
}
