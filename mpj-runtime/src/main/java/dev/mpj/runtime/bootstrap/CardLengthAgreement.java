package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.spi.ExchangeException;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.pmi.PmiClient;

/**
 * When cards may differ in length, the job agrees on the longest before the exchange, as in the
 * locality-aware PMI paper: the local maximum in the node segment, one put per node (its root), one fence, and
 * every rank gets the N node maxima. N puts and N·P gets in the job, on top of the exchange's own.
 */
public final class CardLengthAgreement {
    /** The PMI key of a node's longest card: this prefix, then the node. */
    public static final String KEY = "mpj-cardmax-";

    private CardLengthAgreement() {
    }

    /**
     * Agrees on the job's longest card and tells the context (the segment must be attached, with this rank's
     * card offered by {@link ExchangeContext#attachForIrregularCards()}).
     *
     * @return the longest card of the job, in bytes
     */
    public static int run(ExchangeContext c) {
        NodeSegment segment = c.segment();
        NodeMap map = c.nodeMap();
        PmiClient pmi = c.pmi();
        segment.offerCardLength(c.card().length);
        segment.barrier();
        if (map.isRoot(c.rank())) {
            pmi.put(KEY + map.nodeOf(c.rank()), Integer.toString(segment.longestCardOffered()));
        }
        pmi.barrier();
        int longest = 0;
        for (int node = 0; node < map.nodeCount(); node++) {
            String value = pmi.get(KEY + node);
            int length;
            try {
                length = value == null ? -1 : Integer.parseInt(value);
            } catch (NumberFormatException e) {
                length = -1;
            }
            if (length < 1) {
                throw new ExchangeException("node " + node + " published no valid longest card length (key " + KEY
                        + node + " = " + value + ")");
            }
            longest = Math.max(longest, length);
        }
        c.agreedCardLength(longest);
        return longest;
    }
}
