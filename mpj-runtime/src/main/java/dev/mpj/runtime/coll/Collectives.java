package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Reduction;
import dev.mpj.api.ReductionOperands;
import dev.mpj.runtime.config.CollectiveAlgorithms;
import dev.mpj.runtime.node.CollectiveRoom;
import dev.mpj.runtime.node.NodeMap;
import mpi.MPIException;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The collectives of {@link MpiBackend}, over its point-to-point operations: each call picks an algorithm
 * ({@link CollectiveTuning}) and runs it on the communicator's collective context with the tag of its
 * {@link CollectiveKind}. Sizes are in bytes and the arguments have the meaning given in
 * {@link MpiBackend}; the {@code mpi} layer has checked them, so only what would otherwise hang or
 * corrupt memory is checked again here.
 *
 * <p>Given the job's node map, bcast, reduce, allreduce, allgather and barrier run node-aware (leaders across
 * nodes, shared memory within) where {@link CollectiveTuning} says so. The choice depends only on what every
 * member knows alike (the communicator's layout, the message length, the operation), so all members choose
 * the same. The node-aware steps run on the collective's own tag: each step is a whole collective over its group
 * (a node, or the node leaders) and every member runs its steps in the same order, so each pair's messages
 * still match in the order they are sent.
 *
 * <p>An error one member raises inside a collective revokes the communicator's collectives
 * ({@link MpiBackend#revokeCollectives}), so every other member's collective fails too and none hangs.
 */
public final class Collectives {
    private final MpiBackend p2p;
    private final CollectiveTuning tuning;
    private final FlatCollectives flat;
    private final NodeMap nodeMap;
    /** The node-local collectives, or null where there is no node segment or they are turned off. */
    private final SharedMemoryCollectives shm;
    /** The room of a pair's long allreduces and long-block alltoalls on this node, or null where there is none. */
    private final PairFoldRoom folds;
    /** What is kept of each communicator, by collective context; a context freed and reused is made afresh. */
    private final Map<Integer, CommunicatorCache> caches = new ConcurrentHashMap<>();
    /**
     * The cache the last call used, tried before the map: a job's collectives mostly run on one communicator, and
     * the map's lookup (a boxed key, a hash, a probe) is code every collective's first calls and compiles carry.
     */
    private CommunicatorCache lastCache;

    /** Collectives with no node map: every algorithm is flat. */
    public Collectives(MpiBackend p2p, CollectiveTuning tuning) {
        this(p2p, tuning, null);
    }

    /** Collectives that may run node-aware over the nodes of {@code nodeMap} (null: none known). */
    public Collectives(MpiBackend p2p, CollectiveTuning tuning, NodeMap nodeMap) {
        this(p2p, tuning, nodeMap, null);
    }

    /**
     * Collectives that may also run through {@code shm} (null: never) for communicators within this node.
     */
    public Collectives(MpiBackend p2p, CollectiveTuning tuning, NodeMap nodeMap, SharedMemoryCollectives shm) {
        this(p2p, tuning, nodeMap, shm, null);
    }

    /**
     * Collectives that may also run through {@code shm} and a pair's long allreduces through {@code folds} (null:
     * never) for communicators within this node.
     */
    public Collectives(MpiBackend p2p, CollectiveTuning tuning, NodeMap nodeMap, SharedMemoryCollectives shm,
                       PairFoldRoom folds) {
        this.folds = folds;
        this.p2p = p2p;
        this.tuning = tuning;
        this.flat = new FlatCollectives(tuning);
        this.nodeMap = nodeMap;
        this.shm = shm;
    }

    public void barrier(CommSpec comm) {
        try {
            NodeChannel ch = channel(comm, CollectiveKind.BARRIER, 0);
            if (ch != null) {
                shm.barrier(ch);
                return;
            }
            Peers peers = peers(comm, CollectiveKind.BARRIER);
            NodeLayout layout = layout(comm);
            if (layout != null && tuning.nodeAware(CollectiveKind.BARRIER, 0, layout)) {
                NodeAwareBarrier.run(layout, peers);
            } else {
                flat.barrier(peers);
            }
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    public void bcast(CommSpec comm, ByteBuffer data, int root) {
        try {
            checkRoot(comm, root);
            int n = data.remaining();
            if (comm.size() == 1 || n == 0) {
                return;
            }
            NodeChannel ch = channel(comm, CollectiveKind.BCAST, n);
            if (ch != null) {
                shm.bcast(ch, data, root);
                return;
            }
            Peers peers = peers(comm, CollectiveKind.BCAST);
            NodeLayout layout = layout(comm);
            if (layout != null && tuning.nodeAware(CollectiveKind.BCAST, n, layout)) {
                NodeAwareBcast.run(flat, layout, peers, data, root);
            } else {
                flat.bcast(peers.rootedAt(root), data);
            }
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    public void gather(CommSpec comm, ByteBuffer send, ByteBuffer recv, int root) {
        try {
            checkRoot(comm, root);
            if (comm.rank() == root) {
                checkLength("gather", recv, (long) send.remaining() * comm.size());
            }
            BinomialGather.run(peers(comm, CollectiveKind.GATHER).rootedAt(root), send, recv);
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    public void gatherv(CommSpec comm, ByteBuffer send, ByteBuffer[] recv, int root) {
        try {
            checkRoot(comm, root);
            if (comm.rank() == root) {
                checkBlocks("gatherv", recv, comm.size());
            }
            LinearV.gatherv(peers(comm, CollectiveKind.GATHERV), send, recv, root);
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    public void scatter(CommSpec comm, ByteBuffer send, ByteBuffer recv, int root) {
        try {
            checkRoot(comm, root);
            int block;
            if (comm.rank() == root) {
                block = send.remaining() / comm.size();
                checkLength("scatter", send, (long) block * comm.size());
                if (recv != null) {
                    checkLength("scatter", recv, block);
                }
            } else {
                block = recv.remaining();
            }
            BinomialScatter.run(peers(comm, CollectiveKind.SCATTER).rootedAt(root), send, recv, block);
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    public void scatterv(CommSpec comm, ByteBuffer[] send, ByteBuffer recv, int root) {
        try {
            checkRoot(comm, root);
            if (comm.rank() == root) {
                checkBlocks("scatterv", send, comm.size());
            }
            LinearV.scatterv(peers(comm, CollectiveKind.SCATTERV), send, recv, root);
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    public void allgather(CommSpec comm, ByteBuffer send, ByteBuffer recv) {
        try {
            int p = comm.size();
            int block = send.remaining();
            checkLength("allgather", recv, (long) block * p);
            Bytes.copy(send, recv, comm.rank() * block);
            if (p == 1 || block == 0) {
                return;
            }
            NodeChannel ch = channel(comm, CollectiveKind.ALLGATHER, block);
            if (ch != null) {
                shm.allgather(ch, send, recv);
                return;
            }
            Peers peers = peers(comm, CollectiveKind.ALLGATHER);
            NodeLayout layout = layout(comm);
            if (layout != null && NodeAwareAllgather.applies(layout)
                    && tuning.nodeAware(CollectiveKind.ALLGATHER, (long) block * p, layout)) {
                NodeAwareAllgather.run(flat, layout, peers, send, recv);
            } else {
                flat.allgather(peers, recv, Alltoall.equalBlocks(p, block));
            }
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    public void allgatherv(CommSpec comm, ByteBuffer send, ByteBuffer[] recv) {
        try {
            checkBlocks("allgatherv", recv, comm.size());
            Bytes.copy(send, recv[comm.rank()]);
            RingAllgather.run(peers(comm, CollectiveKind.ALLGATHERV), recv);
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    public void alltoall(CommSpec comm, ByteBuffer send, ByteBuffer recv) {
        try {
            int p = comm.size();
            checkEqualBlocks("alltoall", send, recv, p);
            int block = send.remaining() / p;
            NodeChannel ch = channel(comm, CollectiveKind.ALLTOALL, send.remaining());
            if (ch != null) {
                shm.alltoall(ch, send, recv);
                return;
            }
            PairAlltoall pair = pairAlltoall(comm, block);
            if (pair != null) {
                pair.alltoall(send, recv);
                folds.ranAlltoall();
                return;
            }
            Peers peers = peers(comm, CollectiveKind.ALLTOALL);
            switch (tuning.alltoall(block, p)) {
                case BRUCK -> Alltoall.bruck(peers, send, recv);
                case PAIRWISE -> Alltoall.pairwise(peers, send, recv);
                default -> Alltoall.scattered(peers, send, recv);
            }
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    public void alltoallv(CommSpec comm, ByteBuffer[] send, ByteBuffer[] recv) {
        try {
            checkBlocks("alltoallv", send, comm.size());
            checkBlocks("alltoallv", recv, comm.size());
            LinearV.alltoallv(peers(comm, CollectiveKind.ALLTOALLV), send, recv);
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    public void reduce(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        try {
            checkRoot(comm, root);
            checkVector("reduce", send, op);
            if (comm.rank() == root) {
                checkLength("reduce", recv, send.remaining());
            }
            NodeChannel ch = channel(comm, CollectiveKind.REDUCE, send.remaining());
            if (ch != null) {
                shm.reduce(ch, send, recv, op, root);
                return;
            }
            Peers peers = peers(comm, CollectiveKind.REDUCE);
            NodeLayout layout = layout(comm);
            if (layout != null && NodeAwareReduce.applies(layout, op)
                    && tuning.nodeAware(CollectiveKind.REDUCE, send.remaining(), layout)) {
                NodeAwareReduce.run(flat, layout, peers, send, recv, op, root);
            } else {
                flat.reduce(peers, send, recv, op, root);
            }
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    public void allreduce(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op) {
        try {
            checkVector("allreduce", send, op);
            checkLength("allreduce", recv, send.remaining());
            int n = send.remaining();
            if (comm.size() == 1 || n == 0) {
                Bytes.copy(send, recv);
                return;
            }
            NodeChannel ch = channel(comm, CollectiveKind.ALLREDUCE, n);
            if (ch != null) {
                shm.allreduce(ch, send, recv, op);
                return;
            }
            Peers peers = peers(comm, CollectiveKind.ALLREDUCE);
            NodeLayout layout = layout(comm);
            if (nodeAwareAllreduce(layout, n, op)) {
                NodeAwareAllreduce.run(flat, layout, peers, send, recv, op);
            } else {
                flat.allreduce(peers, send, recv, op);
            }
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    /**
     * An allreduce over the caller's operand and result where it holds them: Rabenseifner's algorithm over a
     * power-of-two communicator moves the vector in ranges and takes them so; every other path reduces the whole
     * operand packed and lands the whole result.
     */
    public void allreduce(CommSpec comm, ReductionOperands operands, Reduction op) {
        int n = operands.bytes();
        PairFold pair = pairFold(comm, n, op);
        if (pair != null) {
            try {
                pair.allreduce(operands, op.itemBytes());
                folds.ranAllreduce();
            } catch (RuntimeException e) {
                throw revoked(comm, e);
            }
            return;
        }
        if (inRanges(comm, n, op)) {
            try {
                Allreduce.rabenseifner(peers(comm, CollectiveKind.ALLREDUCE), operands, op);
            } catch (RuntimeException e) {
                throw revoked(comm, e);
            }
            return;
        }
        allreduce(comm, operands.packedOperand(), operands.resultRoom(), op);
        operands.landRoom();
    }

    /**
     * The room a pair's allreduce of {@code n} bytes runs through when it is long (where Rabenseifner's exchanges are
     * rendezvous messages), the algorithm is left to the runtime and its members share this node, else null.
     */
    private PairFold pairFold(CommSpec comm, int n, Reduction op) {
        if (folds == null || comm.size() != 2 || n < PairFold.MIN_BYTES || n % op.itemBytes() != 0
                || !op.isCommutative() || !tuning.automatic(CollectiveKind.ALLREDUCE)) {
            return null;
        }
        return cache(comm).pairFold(comm, folds);
    }

    /**
     * The room a pair's alltoall of {@code block} bytes to a member runs through when the blocks are too long for the
     * collective room and at most 1 MiB, the algorithm is left to the runtime and its members share this node, else
     * null.
     */
    private PairAlltoall pairAlltoall(CommSpec comm, int block) {
        if (folds == null || comm.size() != 2 || block < PairAlltoall.MIN_BLOCK || block > PairAlltoall.MAX_BLOCK
                || !tuning.automatic(CollectiveKind.ALLTOALL)) {
            return null;
        }
        return cache(comm).pairAlltoall(comm, folds);
    }

    /** Whether an allreduce of {@code n} bytes runs the flat Rabenseifner over a power-of-two communicator. */
    private boolean inRanges(CommSpec comm, int n, Reduction op) {
        int p = comm.size();
        return p > 1 && Bytes.isPowerOfTwo(p) && n > 0 && n % op.itemBytes() == 0
                && tuning.allreduce(n, p, op) == CollectiveAlgorithms.Allreduce.RABENSEIFNER
                && channel(comm, CollectiveKind.ALLREDUCE, n) == null && !nodeAwareAllreduce(layout(comm), n, op);
    }

    private boolean nodeAwareAllreduce(NodeLayout layout, int n, Reduction op) {
        return layout != null && NodeAwareAllreduce.applies(layout, op)
                && tuning.nodeAware(CollectiveKind.ALLREDUCE, n, layout);
    }

    public void reduceScatter(CommSpec comm, ByteBuffer send, ByteBuffer recv, int[] blockBytes, Reduction op) {
        try {
            checkVector("reduceScatter", send, op);
            long total = 0;
            for (int b : blockBytes) {
                total += b;
            }
            checkLength("reduceScatter", send, total);
            checkLength("reduceScatter", recv, blockBytes[comm.rank()]);
            ReduceScatter.run(peers(comm, CollectiveKind.REDUCE_SCATTER), send, recv, blockBytes, op);
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    public void scan(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op) {
        try {
            checkVector("scan", send, op);
            checkLength("scan", recv, send.remaining());
            RecursiveDoublingScan.run(peers(comm, CollectiveKind.SCAN), send, recv, op);
        } catch (RuntimeException e) {
            throw revoked(comm, e);
        }
    }

    /**
     * An error raised here inside a collective (a check, a short or long block, a lost peer, a user operation
     * that threw) leaves the other members waiting for this one: the communicator's collectives are revoked, so
     * they fail too ({@code ERR_REVOKED}) instead of hanging. A revocation is not passed on again. The member that
     * raised the error retires the communicator's node-local channel and room first.
     */
    private RuntimeException revoked(CommSpec comm, RuntimeException e) {
        if (CollectiveErrors.revokes(e)) {
            if (shm != null) {
                shm.retire(comm);
            }
            if (folds != null) {
                folds.retire(comm);
            }
        }
        if (comm.size() > 1) {
            p2p.revokeCollectives(comm, e);
        }
        return e;
    }

    private Peers peers(CommSpec comm, CollectiveKind kind) {
        return cache(comm).peers(p2p, comm, kind);
    }

    /**
     * The communicator's node-local channel when collective {@code kind} of {@code bytes} per member (an alltoall's
     * whole send vector) runs through it, else null: every member decides alike, from the size, the algorithm settings and the channel's owner.
     */
    private NodeChannel channel(CommSpec comm, CollectiveKind kind, int bytes) {
        if (shm == null || !shm.serves(kind, comm.size()) || bytes > CollectiveRoom.DATA_CAPACITY
                || !tuning.automatic(kind)) {
            return null;
        }
        return cache(comm).channel(comm, shm);
    }

    private CommunicatorCache cache(CommSpec comm) {
        CommunicatorCache last = lastCache;
        if (last != null && last.context() == comm.collectiveContext() && last.describes(comm)) {
            return last;
        }
        CommunicatorCache cache = caches.get(comm.collectiveContext());
        if (cache == null || !cache.describes(comm)) {
            cache = new CommunicatorCache(comm);
            caches.put(comm.collectiveContext(), cache);
        }
        lastCache = cache;
        return cache;
    }

    /** The communicator's layout when a node-aware algorithm could run on it, else null. */
    private NodeLayout layout(CommSpec comm) {
        if (nodeMap == null || nodeMap.nodeCount() == 1 || comm.size() < 3 || tuning.flatOnly()) {
            return null;
        }
        NodeLayout layout = cache(comm).layout(comm, nodeMap);
        return layout.spansSharedNodes() ? layout : null;
    }

    static void checkRoot(CommSpec comm, int root) {
        if (root < 0 || root >= comm.size()) {
            throw new MPIException(MPIException.ERR_ROOT, "root " + root + " is not a rank of a communicator of size "
                    + comm.size());
        }
    }

    static void checkLength(String call, ByteBuffer buffer, long expected) {
        if (buffer == null || buffer.remaining() != expected) {
            throw new MPIException(MPIException.ERR_COUNT, call + ": a buffer of " + expected + " bytes is needed, got "
                    + (buffer == null ? "none" : buffer.remaining() + " bytes"));
        }
    }

    /** An alltoall's buffers: as long as each other, and cut into {@code p} equal blocks. */
    static void checkEqualBlocks(String call, ByteBuffer send, ByteBuffer recv, int p) {
        checkLength(call, recv, send.remaining());
        if (send.remaining() % p != 0) {
            throw new MPIException(MPIException.ERR_COUNT, call + ": " + send.remaining()
                    + " bytes do not split into " + p + " equal blocks");
        }
    }

    private static void checkBlocks(String call, ByteBuffer[] blocks, int p) {
        if (blocks == null || blocks.length != p) {
            throw new MPIException(MPIException.ERR_COUNT, call + ": one block per rank (" + p + ") is needed, got "
                    + (blocks == null ? "none" : blocks.length));
        }
    }

    static void checkVector(String call, ByteBuffer send, Reduction op) {
        if (send.remaining() % op.itemBytes() != 0) {
            throw new MPIException(MPIException.ERR_COUNT, call + ": " + send.remaining()
                    + " bytes are not whole items of " + op.itemBytes() + " bytes");
        }
    }
}
