package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Reduction;
import mpi.MPIException;

import java.nio.ByteBuffer;

/**
 * The collectives of {@link MpiBackend}, over its point-to-point operations: each call picks an algorithm
 * ({@link CollectiveTuning}) and runs it on the communicator's collective context with the tag of its
 * {@link CollectiveKind}. Sizes are in bytes and the arguments have the meaning given in
 * {@link MpiBackend}; the {@code mpi} layer has checked them, so only what would otherwise hang or
 * corrupt memory is checked again here.
 */
public final class Collectives {
    private final MpiBackend p2p;
    private final CollectiveTuning tuning;

    public Collectives(MpiBackend p2p, CollectiveTuning tuning) {
        this.p2p = p2p;
        this.tuning = tuning;
    }

    public void barrier(CommSpec comm) {
        DisseminationBarrier.run(p2p, comm);
    }

    public void bcast(CommSpec comm, ByteBuffer data, int root) {
        checkRoot(comm, root);
        int n = data.remaining();
        if (comm.size() == 1 || n == 0) {
            return;
        }
        Peers peers = peers(comm, CollectiveKind.BCAST).rootedAt(root);
        switch (tuning.bcast(n, comm.size())) {
            case SCATTER_DOUBLING -> ScatterAllgatherBcast.run(peers, data, false);
            case SCATTER_RING -> ScatterAllgatherBcast.run(peers, data, true);
            default -> BinomialBcast.run(peers, data);
        }
    }

    public void gather(CommSpec comm, ByteBuffer send, ByteBuffer recv, int root) {
        checkRoot(comm, root);
        if (comm.rank() == root) {
            checkLength("gather", recv, (long) send.remaining() * comm.size());
        }
        BinomialGather.run(peers(comm, CollectiveKind.GATHER).rootedAt(root), send, recv);
    }

    public void gatherv(CommSpec comm, ByteBuffer send, ByteBuffer[] recv, int root) {
        checkRoot(comm, root);
        if (comm.rank() == root) {
            checkBlocks("gatherv", recv, comm.size());
        }
        LinearV.gatherv(peers(comm, CollectiveKind.GATHERV), send, recv, root);
    }

    public void scatter(CommSpec comm, ByteBuffer send, ByteBuffer recv, int root) {
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
    }

    public void scatterv(CommSpec comm, ByteBuffer[] send, ByteBuffer recv, int root) {
        checkRoot(comm, root);
        if (comm.rank() == root) {
            checkBlocks("scatterv", send, comm.size());
        }
        LinearV.scatterv(peers(comm, CollectiveKind.SCATTERV), send, recv, root);
    }

    public void allgather(CommSpec comm, ByteBuffer send, ByteBuffer recv) {
        int p = comm.size();
        int block = send.remaining();
        checkLength("allgather", recv, (long) block * p);
        Bytes.copy(send, recv, comm.rank() * block);
        if (p == 1 || block == 0) {
            return;
        }
        Peers peers = peers(comm, CollectiveKind.ALLGATHER);
        int[] start = Alltoall.equalBlocks(p, block);
        if (tuning.allgather((long) block * p, p) == CollectiveTuning.Allgather.RING) {
            RingAllgather.run(peers, RingAllgather.blocks(recv, start));
        } else {
            RecursiveDoublingAllgather.run(peers, recv, start);
        }
    }

    public void allgatherv(CommSpec comm, ByteBuffer send, ByteBuffer[] recv) {
        checkBlocks("allgatherv", recv, comm.size());
        Bytes.copy(send, recv[comm.rank()]);
        RingAllgather.run(peers(comm, CollectiveKind.ALLGATHERV), recv);
    }

    public void alltoall(CommSpec comm, ByteBuffer send, ByteBuffer recv) {
        int p = comm.size();
        checkLength("alltoall", recv, send.remaining());
        if (send.remaining() % p != 0) {
            throw new MPIException(MPIException.ERR_COUNT, "alltoall: " + send.remaining()
                    + " bytes do not split into " + p + " equal blocks");
        }
        int block = send.remaining() / p;
        Peers peers = peers(comm, CollectiveKind.ALLTOALL);
        switch (tuning.alltoall(block, p)) {
            case BRUCK -> Alltoall.bruck(peers, send, recv);
            case PAIRWISE -> Alltoall.pairwise(peers, send, recv);
            default -> Alltoall.scattered(peers, send, recv);
        }
    }

    public void alltoallv(CommSpec comm, ByteBuffer[] send, ByteBuffer[] recv) {
        checkBlocks("alltoallv", send, comm.size());
        checkBlocks("alltoallv", recv, comm.size());
        LinearV.alltoallv(peers(comm, CollectiveKind.ALLTOALLV), send, recv);
    }

    public void reduce(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        checkRoot(comm, root);
        checkVector("reduce", send, op);
        if (comm.rank() == root) {
            checkLength("reduce", recv, send.remaining());
        }
        BinomialReduce.run(peers(comm, CollectiveKind.REDUCE), send, recv, op, root);
    }

    public void allreduce(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op) {
        checkVector("allreduce", send, op);
        checkLength("allreduce", recv, send.remaining());
        int n = send.remaining();
        if (comm.size() == 1 || n == 0) {
            Bytes.copy(send, recv);
            return;
        }
        Peers peers = peers(comm, CollectiveKind.ALLREDUCE);
        switch (tuning.allreduce(n, comm.size(), op)) {
            case RABENSEIFNER -> Allreduce.rabenseifner(peers, send, recv, op);
            case RING -> Allreduce.ring(peers, send, recv, op);
            default -> Allreduce.recursiveDoubling(peers, send, recv, op);
        }
    }

    public void reduceScatter(CommSpec comm, ByteBuffer send, ByteBuffer recv, int[] blockBytes, Reduction op) {
        checkVector("reduceScatter", send, op);
        long total = 0;
        for (int b : blockBytes) {
            total += b;
        }
        checkLength("reduceScatter", send, total);
        checkLength("reduceScatter", recv, blockBytes[comm.rank()]);
        ReduceScatter.run(peers(comm, CollectiveKind.REDUCE_SCATTER), send, recv, blockBytes, op);
    }

    public void scan(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op) {
        checkVector("scan", send, op);
        checkLength("scan", recv, send.remaining());
        RecursiveDoublingScan.run(peers(comm, CollectiveKind.SCAN), send, recv, op);
    }

    private Peers peers(CommSpec comm, CollectiveKind kind) {
        return Peers.of(p2p, comm, kind);
    }

    private static void checkRoot(CommSpec comm, int root) {
        if (root < 0 || root >= comm.size()) {
            throw new MPIException(MPIException.ERR_ROOT, "root " + root + " is not a rank of a communicator of size "
                    + comm.size());
        }
    }

    private static void checkLength(String call, ByteBuffer buffer, long expected) {
        if (buffer == null || buffer.remaining() != expected) {
            throw new MPIException(MPIException.ERR_COUNT, call + ": a buffer of " + expected + " bytes is needed, got "
                    + (buffer == null ? "none" : buffer.remaining() + " bytes"));
        }
    }

    private static void checkBlocks(String call, ByteBuffer[] blocks, int p) {
        if (blocks == null || blocks.length != p) {
            throw new MPIException(MPIException.ERR_COUNT, call + ": one block per rank (" + p + ") is needed, got "
                    + (blocks == null ? "none" : blocks.length));
        }
    }

    private static void checkVector(String call, ByteBuffer send, Reduction op) {
        if (send.remaining() % op.itemBytes() != 0) {
            throw new MPIException(MPIException.ERR_COUNT, call + ": " + send.remaining()
                    + " bytes are not whole items of " + op.itemBytes() + " bytes");
        }
    }
}
