package dev.mpj.runtime.spi;

import org.agrona.concurrent.AtomicBuffer;

/**
 * The part of this node's shared segment that belongs to the shared-memory transport, and who shares it.
 *
 * @param nodeId    this node's id, the same on every rank of the node
 * @param nodeRanks the world ranks of this node in ascending order; a rank's index is its local rank
 * @param jobSize   ranks in the job
 * @param region    the transport's room in the mapped segment
 * @param processId this process's id, for the liveness slots peers watch
 */
public record NodeRoom(int nodeId, int[] nodeRanks, int jobSize, AtomicBuffer region, long processId) {
    public NodeRoom {
        nodeRanks = nodeRanks.clone();
    }

    @Override
    public int[] nodeRanks() {
        return nodeRanks.clone();
    }
}
