package dev.mpj.runtime.coll;

import dev.mpj.runtime.config.CollectiveAlgorithms.SharedMemory;

/**
 * Which collectives of up to 2 KiB per member run through the node segment's room ({@link SharedMemoryCollectives})
 * under {@code mpj.coll.sharedMemory}. Every member of a node decides alike, from the setting, the node's rank count
 * and its cores, so all of a communicator's members take the same path.
 *
 * <ul>
 *   <li>{@code on}: barrier, bcast, reduce, allreduce and allgather.</li>
 *   <li>{@code auto}: the barrier and bcast (one write the others read: no tree of forwarded messages); reduce,
 *       allreduce and allgather too when the node's ranks outnumber its cores. There every point-to-point round is
 *       a hand-over to a rank that must first get a core back, and the room needs one; with a core per rank the
 *       warm point-to-point path beats the room's folds.</li>
 *   <li>{@code off}: none.</li>
 * </ul>
 */
public final class NodeLocalKinds {
    private final boolean barrierAndBcast;
    private final boolean everyKind;

    private NodeLocalKinds(boolean barrierAndBcast, boolean everyKind) {
        this.barrierAndBcast = barrierAndBcast;
        this.everyKind = everyKind;
    }

    /** The kinds for {@code mode} on a node of {@code localRanks} ranks and {@code cores} cores. */
    public static NodeLocalKinds of(SharedMemory mode, int localRanks, int cores) {
        return switch (mode) {
            case ON -> new NodeLocalKinds(true, true);
            case AUTO -> new NodeLocalKinds(true, localRanks > cores);
            case OFF -> new NodeLocalKinds(false, false);
        };
    }

    /** Whether collective {@code kind} runs through the room when its communicator and size allow. */
    boolean serves(CollectiveKind kind) {
        return switch (kind) {
            case BARRIER, BCAST -> barrierAndBcast;
            case REDUCE, ALLREDUCE, ALLGATHER -> everyKind;
            default -> false;
        };
    }
}
