package dev.mpj.runtime.node;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A rank of a node in a child JVM, for {@link NodeSegmentTest}.
 * <ul>
 *   <li>{@code open <file> <jobSize> <rank>}: maps the segment of node 0 of 2 local ranks, writes the card
 *   "card of rank R" into its slot, meets the creator in the node barrier twice, prints the creator's card.</li>
 *   <li>{@code create-and-exit <file>}: creates a segment and exits without closing it.</li>
 * </ul>
 */
public final class SegmentPeerMain {
    private SegmentPeerMain() {
    }

    public static void main(String[] args) {
        Path file = Path.of(args[1]);
        Duration timeout = Duration.ofSeconds(20);
        if (args[0].equals("create-and-exit")) {
            NodeSegment.create(file, 0, 2, 2, 32, 0, timeout);
            System.out.println("created");
            return; // the shutdown hook removes the file
        }
        int jobSize = Integer.parseInt(args[2]);
        int rank = Integer.parseInt(args[3]);
        try (NodeSegment segment = NodeSegment.open(file, 0, 2, jobSize, timeout)) {
            segment.putCard(rank, ("card of rank " + rank).getBytes(StandardCharsets.US_ASCII));
            segment.barrier();
            byte[] root = segment.card(0);
            segment.barrier();
            System.out.println("root card: " + (root == null ? "none" : new String(root, StandardCharsets.US_ASCII)));
        }
    }
}
