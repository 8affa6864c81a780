package dev.mpj.runtime;

import dev.mpj.api.Arrival;
import dev.mpj.api.BlockingReceiver;
import dev.mpj.api.CommSpec;
import dev.mpj.api.Envelope;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.PendingCall;
import dev.mpj.api.SendMode;
import dev.mpj.api.Reduction;
import dev.mpj.api.ReductionOperands;
import dev.mpj.runtime.coll.CollectiveErrors;
import dev.mpj.runtime.coll.CollectiveTuning;
import dev.mpj.runtime.coll.Collectives;
import dev.mpj.runtime.coll.NodeLocalKinds;
import dev.mpj.runtime.coll.NonBlockingCollectives;
import dev.mpj.runtime.coll.PairFoldRoom;
import dev.mpj.runtime.coll.SharedMemoryCollectives;
import dev.mpj.runtime.config.CollectiveAlgorithms;
import dev.mpj.runtime.config.ConnectionMode;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.spi.ConnectionStats;
import dev.mpj.runtime.connect.EagerReport;
import dev.mpj.runtime.engine.ProgressEngine;
import dev.mpj.runtime.engine.WaitReport;
import dev.mpj.runtime.init.InitReport;
import dev.mpj.runtime.init.InitSequence;
import dev.mpj.runtime.init.World;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodePlacement;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.node.SharedRegions;
import dev.mpj.runtime.pmi.PmiClient;
import mpi.MPIException;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The runtime behind package {@code mpi}: {@code MPI.Init} is the {@link InitSequence}, which builds this rank's
 * {@link World}; point-to-point traffic goes to its {@link ProgressEngine}, collectives to {@link Collectives}
 * over it. {@link #current()} gives the runtime of this process, e.g. for its {@link #initReport() init report}.
 */
public final class MpjRuntime implements MpiBackend {
    private static volatile MpjRuntime current;

    private World world;
    private ProgressEngine engine;
    private Collectives collectives;
    private SharedMemoryCollectives sharedMemoryCollectives;
    private PairFoldRoom foldRoom;
    private NonBlockingCollectives nonBlocking;
    private SharedRegions regions;
    /** The least packed send placed in shared memory: above the eager threshold, with node peers; else none. */
    private int transferMemoryFrom = Integer.MAX_VALUE;
    /**
     * For the wait report, read on another thread: {@code MPI.Init} or {@code MPI.Finalize} while the rank is in
     * them (else null, and the engine's wait is reported), and since when.
     */
    private volatile String outerCall;
    private volatile long outerCallSince;

    @Override
    public void init(String[] args) {
        InitReport r = new InitReport();
        enterOuterCall("MPI.Init");
        WaitReportSignal.register(this);
        try {
            World w = InitSequence.run(System.getenv(), r);
            Settings settings = w.settings();
            CollectiveTuning tuning = CollectiveTuning.from(settings);
            world = w;
            engine = w.engine();
            NodePlacement placement = NodePlacement.of(w.nodeMap(), w.rank());
            if (placement.crowded()) {
                engine.ranksOutnumberCores();
            }
            sharedMemoryCollectives = w.segment() == null
                    || settings.sharedMemoryCollectives() == CollectiveAlgorithms.SharedMemory.OFF ? null
                    : new SharedMemoryCollectives(w.segment().collectiveRegion(), engine, w.nodeMap(), w.rank(),
                            NodeLocalKinds.of(settings.sharedMemoryCollectives(), placement));
            foldRoom = sharedMemoryCollectives == null ? null
                    : new PairFoldRoom(w.segment().foldRegion(), engine, w.nodeMap(), w.rank());
            collectives = new Collectives(this, tuning, w.nodeMap(), sharedMemoryCollectives, foldRoom);
            nonBlocking = new NonBlockingCollectives(this, engine);
            regions = new SharedRegions(w.segment() == null ? null : w.segment().file(), w.rank(),
                    settings.segmentDirectory());
            if (w.router() != null) {
                w.router().shareRegions(regions);
            }
            transferMemoryFrom = w.segment() == null || settings.eagerThreshold() == Integer.MAX_VALUE
                    ? Integer.MAX_VALUE : settings.eagerThreshold() + 1;
            current = this;
            if (settings.initTimings()) {
                System.err.println("mpj: rank " + w.rank() + " of " + w.size() + " on node "
                        + w.nodeMap().nodeOf(w.rank()) + " of " + w.nodeMap().nodeCount() + " exchange "
                        + r.exchange() + " init " + r + " pmi(" + w.pmi().dialect() + ") " + w.pmi().counters());
            }
            outerCall = null;
        } catch (MPIException e) {
            WaitReportSignal.unregister(this);
            throw e;
        } catch (RuntimeException | IOException e) {
            WaitReportSignal.unregister(this);
            throw new MPIException(MPIException.ERR_OTHER, "MPI.Init failed: " + e.getMessage(), e);
        }
    }

    /** Provides every level: {@code THREAD_MULTIPLE} makes the engine lock for any thread (see EngineLock). */
    @Override
    public int initThread(String[] args, int required) {
        init(args);
        engine.setThreadLevel(required);
        return required;
    }

    private void enterOuterCall(String call) {
        outerCallSince = System.nanoTime();
        outerCall = call;
    }

    /** Where this rank waits now, one line per pending operation; safe from any thread ({@link WaitReport}). */
    List<String> waitReport() {
        String call = outerCall;
        if (call != null) {
            World w = world;
            int rank = w != null ? w.rank() : rankFromEnvironment();
            return List.of(WaitReport.waitsIn(rank, call, System.nanoTime() - outerCallSince, 0));
        }
        return engine.waitReport();
    }

    /** The rank before PMI has said it: {@code PMI_RANK}, which mpjrun, Hydra and Slurm set; -1 if absent. */
    private static int rankFromEnvironment() {
        try {
            return Integer.parseInt(System.getenv().getOrDefault("PMI_RANK", "-1").trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public int rank() {
        return world.rank();
    }

    @Override
    public int size() {
        return world.size();
    }

    @Override
    public String processorName() {
        // a java.io stream, not NIO's Files: a job of one then opens no channel, whose first use loads NIO's native
        // libraries and classes
        try (FileInputStream in = new FileInputStream("/proc/sys/kernel/hostname")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException | RuntimeException e) {
            try {
                return java.net.InetAddress.getLocalHost().getHostName();
            } catch (IOException e2) {
                return "localhost";
            }
        }
    }

    @Override
    public void finish() {
        if (world.settings().connectionStats()) {
            System.err.println("mpj: rank " + world.rank() + " " + world.connectionMode().settingValue() + " "
                    + world.connectionStats() + (world.eagerReport() == null ? "" : "; " + world.eagerReport()));
        }
        enterOuterCall("MPI.Finalize");
        try {
            world.leave();
            regions.close(); // after the last barrier: no peer copies from this rank's regions any more
        } finally {
            WaitReportSignal.unregister(this);
        }
    }

    @Override
    public void abort(int errorCode) {
        System.out.flush();
        System.err.flush();
        try {
            world.pmi().abort(errorCode, "MPI.Abort(" + errorCode + ") called by rank " + world.rank());
        } catch (RuntimeException ignored) {
            // The process manager may already be gone; exiting is what matters now.
        }
        Runtime.getRuntime().halt(errorCode);
    }

    @Override
    public ByteBuffer allocMem(int bytes) {
        return regions.allocate(bytes);
    }

    @Override
    public void freeMem(ByteBuffer buffer) {
        regions.free(buffer);
    }

    @Override
    public ByteBuffer allocTransferMemory(int bytes) {
        return regions.allocateForTransfers(bytes);
    }

    @Override
    public int transferMemoryFrom() {
        return transferMemoryFrom;
    }

    @Override
    public void freeTransferMemory(ByteBuffer buffer) {
        regions.releaseTransfers(buffer);
    }

    @Override
    public Operation send(ByteBuffer data, int destWorldRank, int tag, int context, SendMode mode) {
        return engine.send(data, destWorldRank, tag, context, mode);
    }

    @Override
    public boolean sendNow(ByteBuffer data, int destWorldRank, int tag, int context) {
        return engine.sendNow(data, destWorldRank, tag, context);
    }

    @Override
    public boolean sendNow(byte[] array, int offset, int length, int destWorldRank, int tag, int context) {
        return engine.sendNow(array, offset, length, destWorldRank, tag, context);
    }

    @Override
    public Operation receive(ByteBuffer room, int sourceWorldRank, int tag, int context) {
        return engine.receive(room, sourceWorldRank, tag, context);
    }

    @Override
    public Operation receive(ByteBuffer room, Arrival arrival, int sourceWorldRank, int tag, int context) {
        return engine.receive(room, arrival, sourceWorldRank, tag, context);
    }

    @Override
    public Operation receiveIntoArray(Object array, int index, int itemBytes, int bytes, int sourceWorldRank,
                                      int tag, int context) {
        return engine.receiveIntoArray(array, index, itemBytes, bytes, sourceWorldRank, tag, context);
    }

    @Override
    public Operation receiveAndWait(ByteBuffer room, int sourceWorldRank, int tag, int context,
                                    PendingCall pending) {
        return engine.receiveAndWait(room, sourceWorldRank, tag, context, pending);
    }

    @Override
    public void release(Operation completed) {
        engine.release(completed);
    }

    /** The engine itself: {@code Recv} calls it with no call through here on the way. */
    @Override
    public BlockingReceiver blockingReceiver() {
        return engine;
    }

    @Override
    public Envelope probe(int sourceWorldRank, int tag, int context) {
        return engine.probe(sourceWorldRank, tag, context);
    }

    @Override
    public void await(BooleanSupplier done) {
        engine.await(done);
    }

    @Override
    public void poll() {
        engine.poll();
    }

    @Override
    public void revokeCollectives(CommSpec comm, RuntimeException cause) {
        if (CollectiveErrors.revokes(cause)) {
            engine.revoke(comm.collectiveContext(), comm.worldRanks(), CollectiveErrors.reason(cause));
        }
    }

    @Override
    public void release(CommSpec comm) {
        engine.forgetRevocation(comm.collectiveContext());
    }

    @Override
    public void barrier(CommSpec comm) {
        collectives.barrier(comm);
    }

    @Override
    public void bcast(CommSpec comm, ByteBuffer data, int root) {
        collectives.bcast(comm, data, root);
    }

    @Override
    public void gather(CommSpec comm, ByteBuffer send, ByteBuffer recv, int root) {
        collectives.gather(comm, send, recv, root);
    }

    @Override
    public void gatherv(CommSpec comm, ByteBuffer send, ByteBuffer[] recv, int root) {
        collectives.gatherv(comm, send, recv, root);
    }

    @Override
    public void scatter(CommSpec comm, ByteBuffer send, ByteBuffer recv, int root) {
        collectives.scatter(comm, send, recv, root);
    }

    @Override
    public void scatterv(CommSpec comm, ByteBuffer[] send, ByteBuffer recv, int root) {
        collectives.scatterv(comm, send, recv, root);
    }

    @Override
    public void allgather(CommSpec comm, ByteBuffer send, ByteBuffer recv) {
        collectives.allgather(comm, send, recv);
    }

    @Override
    public void allgatherv(CommSpec comm, ByteBuffer send, ByteBuffer[] recv) {
        collectives.allgatherv(comm, send, recv);
    }

    @Override
    public void alltoall(CommSpec comm, ByteBuffer send, ByteBuffer recv) {
        collectives.alltoall(comm, send, recv);
    }

    @Override
    public void alltoallv(CommSpec comm, ByteBuffer[] send, ByteBuffer[] recv) {
        collectives.alltoallv(comm, send, recv);
    }

    @Override
    public void reduce(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        collectives.reduce(comm, send, recv, op, root);
    }

    @Override
    public void allreduce(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op) {
        collectives.allreduce(comm, send, recv, op);
    }

    @Override
    public void allreduce(CommSpec comm, ReductionOperands operands, Reduction op) {
        collectives.allreduce(comm, operands, op);
    }

    @Override
    public void reduceScatter(CommSpec comm, ByteBuffer send, ByteBuffer recv, int[] blockBytes, Reduction op) {
        collectives.reduceScatter(comm, send, recv, blockBytes, op);
    }

    @Override
    public void scan(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op) {
        collectives.scan(comm, send, recv, op);
    }

    @Override
    public Operation ibarrier(CommSpec comm, int sequence) {
        return nonBlocking.ibarrier(comm, sequence);
    }

    @Override
    public Operation ibcast(CommSpec comm, int sequence, ByteBuffer data, int root) {
        return nonBlocking.ibcast(comm, sequence, data, root);
    }

    @Override
    public Operation ireduce(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        return nonBlocking.ireduce(comm, sequence, send, recv, op, root);
    }

    @Override
    public Operation iallreduce(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv, Reduction op) {
        return nonBlocking.iallreduce(comm, sequence, send, recv, op);
    }

    @Override
    public Operation iallgather(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv) {
        return nonBlocking.iallgather(comm, sequence, send, recv);
    }

    @Override
    public Operation ialltoall(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv) {
        return nonBlocking.ialltoall(comm, sequence, send, recv);
    }

    /** This rank's world as {@code MPI.Init} built it, or null before. */
    public World world() {
        return world;
    }

    /**
     * This rank's TCP connections so far: opened (initiated, accepted), attempts superseded in simultaneous
     * connects, and the distinct peers it exchanged frames with over TCP.
     */
    public ConnectionStats connectionStats() {
        return world.connectionStats();
    }

    /** The connection mode in effect ({@code mpj.connections} resolved for this job). */
    public ConnectionMode connectionMode() {
        return world.connectionMode();
    }

    /** How the eager phase of MPI.Init went (per-round connect times), or null when it did not run. */
    public EagerReport eagerReport() {
        return world.eagerReport();
    }

    /** PMI operations and phase timings of this rank's MPI.Init. */
    public InitReport initReport() {
        return world.report();
    }

    public PmiClient pmi() {
        return world.pmi();
    }

    /** Which ranks share a node, as found during MPI.Init. */
    public NodeMap nodeMap() {
        return world.nodeMap();
    }

    /** The runtime of this process once {@code MPI.Init} has succeeded, else null. */
    public static MpjRuntime current() {
        return current;
    }

    /** Collectives this rank ran through the node segment's collective room (0 when that path is off). */
    public long sharedMemoryCollectiveCalls() {
        SharedMemoryCollectives s = sharedMemoryCollectives;
        return s == null ? 0 : s.calls();
    }

    /** Allreduces this rank ran through the node segment's fold room (0 when that path is off). */
    public long foldRoomAllreduces() {
        PairFoldRoom f = foldRoom;
        return f == null ? 0 : f.allreduces();
    }

    /** Messages this rank copied straight out of a node peer's {@code MPI.Alloc_mem} region. */
    public long sharedRegionReceives() {
        return engine.sharedRegionReceives();
    }

    /** Alltoalls this rank ran through the node segment's fold room (0 when that path is off). */
    public long foldRoomAlltoalls() {
        PairFoldRoom f = foldRoom;
        return f == null ? 0 : f.alltoalls();
    }

    /** This rank's node segment (its card table holds every rank's card after init); null in a job of one. */
    public NodeSegment nodeSegment() {
        return world.segment();
    }
}
