package dev.mpj.runtime.coll;

import dev.mpj.runtime.config.CollectiveAlgorithms.SharedMemory;
import dev.mpj.runtime.node.NodePlacement;

/**
 * Which collectives of up to 2 KiB per member run through the node segment's room ({@link SharedMemoryCollectives})
 * under {@code mpj.coll.sharedMemory}. Every member of a node decides alike, from the setting, the node's rank count
 * and its cores and the communicator's size, so all of a communicator's members take the same path.
 *
 * <ul>
 *   <li>{@code on}: barrier, bcast, reduce, allreduce, allgather and alltoall.</li>
 *   <li>{@code auto}: the barrier and bcast (one write the others read: no tree of forwarded messages); allreduce,
 *       allgather and alltoall too on a communicator of two members, and reduce, allreduce, allgather and alltoall
 *       when the node's ranks outnumber its cores. A pair's allreduce, allgather or alltoall is one exchange, which
 *       over point-to-point is a send, a receive and the engine's matching, a path whose one large JIT compile
 *       outlasts a short job's first 10^4 calls; through the room it is one write, one copy and, for the allreduce,
 *       one combine of heap arrays. Where ranks outnumber cores every point-to-point round is a hand-over to a
 *       rank that must first get a core back, and the room needs one.</li>
 *   <li>{@code off}: none.</li>
 * </ul>
 */
public final class NodeLocalKinds {
    /** Whether the room serves anything: the barrier, bcast, and a pair's allreduce, allgather and alltoall. */
    private final boolean used;
    private final boolean everyKind;

    private NodeLocalKinds(boolean used, boolean everyKind) {
        this.used = used;
        this.everyKind = everyKind;
    }

    /** The kinds for {@code mode} on a node placed as {@code placement}. */
    public static NodeLocalKinds of(SharedMemory mode, NodePlacement placement) {
        return switch (mode) {
            case ON -> new NodeLocalKinds(true, true);
            case AUTO -> new NodeLocalKinds(true, placement.crowded());
            case OFF -> new NodeLocalKinds(false, false);
        };
    }

    /**
     * Whether collective {@code kind} on a communicator of {@code members} runs through the room when its node and
     * size allow.
     */
    boolean serves(CollectiveKind kind, int members) {
        return switch (kind) {
            case BARRIER, BCAST -> used;
            case REDUCE -> everyKind;
            case ALLREDUCE, ALLGATHER, ALLTOALL -> everyKind || used && members == 2;
            default -> false;
        };
    }
}
