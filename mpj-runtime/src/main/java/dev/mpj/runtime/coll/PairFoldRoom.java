package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.node.FoldRoom;
import dev.mpj.runtime.node.NodeMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

import static dev.mpj.runtime.node.FoldRoom.OWNER_OFFSET;

/**
 * The node segment's {@link FoldRoom}, in which one communicator of two members on this node runs its long
 * allreduces ({@link PairFold}) and its alltoalls of long blocks ({@link PairAlltoall}). The first such communicator
 * to need it claims it by writing its identity into the owner word, which never changes after, so both members read
 * the same owner and decide alike; others run over point-to-point. A collective of the owner that fails {@linkplain #retire retires} the room.
 */
public final class PairFoldRoom {
    /**
     * The room's waits, loaded with the room in {@code MPI.Init}, before any collective is compiled. Loaded at a
     * pair's first long collective instead, this second subclass of {@link RoomWait} would make the JIT discard
     * every compiled method that took {@link NodeChannel} for the only one (the barrier, the small collectives'
     * entries), in the middle of the job, and the collective that loaded it would run beside their recompiles.
     */
    private static final Class<PairSlots> WAITS = PairSlots.class;

    private final UnsafeBuffer room;
    private final ByteBuffer view;
    private final ProgressEngine engine;
    private final NodeMap nodeMap;
    private final int node;
    private final AtomicLong allreduces = new AtomicLong();
    private final AtomicLong alltoalls = new AtomicLong();

    /** The room in {@code region} ({@link dev.mpj.runtime.node.NodeSegment#foldRegion}) of world rank {@code worldRank}. */
    public PairFoldRoom(ByteBuffer region, ProgressEngine engine, NodeMap nodeMap, int worldRank) {
        this.view = region.duplicate().clear().order(java.nio.ByteOrder.LITTLE_ENDIAN);
        this.room = new UnsafeBuffer(region);
        this.engine = engine;
        this.nodeMap = nodeMap;
        this.node = nodeMap.nodeOf(worldRank);
    }

    /** The room for {@code comm}, claiming it when free; null when {@code comm} cannot use it or another has it. */
    PairSlots claim(CommSpec comm) {
        if (!fits(comm)) {
            return null;
        }
        RoomOwner owner = new RoomOwner(room, OWNER_OFFSET, comm);
        if (!owner.claim()) {
            return null;
        }
        int[] world = comm.worldRanks();
        int me = comm.rank();
        return new PairSlots(room, view, engine, comm.collectiveContext(), owner, me, slot(world[me]),
                slot(world[1 - me]));
    }

    /** Allreduces that ran here so far (for tests and diagnostics). */
    public long allreduces() {
        return allreduces.get();
    }

    /** Alltoalls that ran here so far (for tests and diagnostics). */
    public long alltoalls() {
        return alltoalls.get();
    }

    /** Counts an allreduce that ran here. */
    void ranAllreduce() {
        allreduces.incrementAndGet();
    }

    /** Counts an alltoall that ran here. */
    void ranAlltoall() {
        alltoalls.incrementAndGet();
    }

    /** Takes the room away for good from {@code comm} after one of its collectives failed: the counters may differ. */
    void retire(CommSpec comm) {
        if (fits(comm)) {
            new RoomOwner(room, OWNER_OFFSET, comm).retire();
        }
    }

    private boolean fits(CommSpec comm) {
        int[] world = comm.worldRanks();
        return room.capacity() > 0 && world.length == 2 && nodeMap.allOn(world, node);
    }

    private int slot(int worldRank) {
        return Math.toIntExact(FoldRoom.slotOffset(nodeMap.localRank(worldRank)));
    }
}
