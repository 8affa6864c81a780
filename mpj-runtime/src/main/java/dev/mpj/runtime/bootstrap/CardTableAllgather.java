package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.spi.InitMessenger;
import dev.mpj.runtime.node.NodeMap;

import java.nio.ByteBuffer;

/**
 * The node roots' allgather of the card table, in place: block j is the slots of node j's ranks, which root j
 * holds (its local ranks wrote them) and every other root needs. A ring over the N roots (root of node k sends
 * to the root of node k+1): N−1 steps, each moving one block, correct for any N.
 *
 * <p>A block whose slots are contiguous in the table (ranks placed by blocks, and whole slots moved) travels
 * straight from and into the table; otherwise (cyclic placements, or only the used part of each slot after a
 * card-length agreement) it is packed into a scratch buffer in rank order and unpacked on arrival.
 */
public final class CardTableAllgather {
    private final ByteBuffer table;
    private final int stride;
    private final int used;
    private final NodeMap map;

    /**
     * @param table     the card table ({@code map.size()} slots of {@code stride} bytes from position 0)
     * @param stride    bytes from one slot to the next
     * @param slotBytes bytes of each slot to move (its start: length field and card), at most {@code stride}
     */
    public CardTableAllgather(ByteBuffer table, int stride, int slotBytes, NodeMap map) {
        if (slotBytes < 1 || slotBytes > stride || (long) stride * map.size() > table.capacity()) {
            throw new IllegalArgumentException("a table of " + table.capacity() + " bytes, slots of " + stride
                    + ", moving " + slotBytes + " of each, for " + map.size() + " ranks");
        }
        this.table = table;
        this.stride = stride;
        this.used = slotBytes;
        this.map = map;
    }

    /** Whether {@code rank} takes part: the node roots of a job on several nodes. */
    public static boolean participates(NodeMap map, int rank) {
        return map.isRoot(rank) && map.nodeCount() > 1;
    }

    /** Runs this root's part of the ring; returns when its table holds every node's block. */
    public void ring(int rank, InitMessenger messenger) {
        int nodes = map.nodeCount();
        int node = map.nodeOf(rank);
        if (map.nodeRoot(node) != rank) {
            throw new IllegalArgumentException("rank " + rank + " is not a node root");
        }
        int right = map.nodeRoot((node + 1) % nodes);
        int left = map.nodeRoot((node + nodes - 1) % nodes);
        ByteBuffer scratchOut = null;
        ByteBuffer scratchIn = null;
        for (int step = 0; step < nodes - 1; step++) {
            int sendBlock = (node - step + nodes) % nodes;
            int receiveBlock = (node - step - 1 + nodes) % nodes;
            ByteBuffer out;
            if (contiguous(sendBlock)) {
                out = region(sendBlock);
            } else {
                scratchOut = scratch(scratchOut, sendBlock);
                out = pack(sendBlock, scratchOut);
            }
            if (contiguous(receiveBlock)) {
                messenger.sendReceive(out, right, region(receiveBlock), left, step);
            } else {
                scratchIn = scratch(scratchIn, receiveBlock);
                messenger.sendReceive(out, right, scratchIn, left, step);
                unpack(receiveBlock, scratchIn);
            }
        }
    }

    /** Whether node j's slots form one run of the table (moved whole). */
    boolean contiguous(int node) {
        int[] ranks = map.ranksOn(node);
        return used == stride && ranks[ranks.length - 1] - ranks[0] == ranks.length - 1;
    }

    private ByteBuffer region(int node) {
        int first = map.nodeRoot(node);
        return table.slice(first * stride, map.localSize(node) * stride);
    }

    private ByteBuffer scratch(ByteBuffer current, int node) {
        int length = map.localSize(node) * used;
        if (current == null || current.capacity() < length) {
            return ByteBuffer.allocate(length);
        }
        return current.clear().limit(length);
    }

    private ByteBuffer pack(int node, ByteBuffer into) {
        int at = 0;
        for (int r : map.ranksOn(node)) {
            into.put(at, table, r * stride, used);
            at += used;
        }
        return into.position(0).limit(at);
    }

    private void unpack(int node, ByteBuffer from) {
        int at = 0;
        for (int r : map.ranksOn(node)) {
            table.put(r * stride, from, at, used);
            at += used;
        }
    }
}
