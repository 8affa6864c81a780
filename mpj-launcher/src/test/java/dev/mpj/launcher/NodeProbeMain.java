package dev.mpj.launcher;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.PmiClients;

import java.nio.ByteBuffer;

/**
 * One rank under a real launcher, for {@link NodeMapUnderLaunchersTest}: discovers the node map, attaches its
 * node segment, writes its rank into its card slot, and after a node barrier checks every local rank's card.
 * Prints {@code rank R map M local L of N localid E segment ok|bad}.
 */
public final class NodeProbeMain {
    private NodeProbeMain() {
    }

    public static void main(String[] args) {
        Settings settings = Settings.fromEnvironment();
        PmiClient pmi = PmiClients.fromEnvironment(settings, System.getenv());
        int rank = pmi.rank();
        NodeMap map = NodeMap.discover(pmi, settings);
        int node = map.nodeOf(rank);
        boolean cardsSeen = true;
        try (NodeSegment segment = NodeSegment.attach(map, rank, pmi.jobId(), settings, 16)) {
            segment.putCard(rank, ByteBuffer.allocate(4).putInt(rank).array());
            segment.barrier();
            for (int peer : map.ranksOn(node)) {
                byte[] card = segment.card(peer);
                cardsSeen &= card != null && ByteBuffer.wrap(card).getInt() == peer;
            }
            segment.barrier(); // nobody detaches before every local rank has attached
        }
        pmi.barrier();
        String line = "rank " + rank + " map " + map + " local " + map.localRank(rank) + " of "
                + map.localSize(node) + " localid " + System.getenv("MPI_LOCALRANKID")
                + " segment " + (cardsSeen ? "ok" : "bad");
        pmi.finish();
        System.out.println(line);
    }
}
