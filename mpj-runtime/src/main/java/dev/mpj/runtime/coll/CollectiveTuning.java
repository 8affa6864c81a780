package dev.mpj.runtime.coll;

import dev.mpj.api.Reduction;
import dev.mpj.runtime.config.CollectiveAlgorithms.Allgather;
import dev.mpj.runtime.config.CollectiveAlgorithms.Allreduce;
import dev.mpj.runtime.config.CollectiveAlgorithms.Alltoall;
import dev.mpj.runtime.config.CollectiveAlgorithms.Bcast;
import dev.mpj.runtime.config.CollectiveAlgorithms.Hierarchical;
import dev.mpj.runtime.config.Settings;

/**
 * Which algorithm each collective uses, by message size and process count, with MPICH's default
 * thresholds (its {@code MPIR_CVAR_*} values, named below). A setting ({@code mpj.coll.bcast},
 * {@code mpj.coll.allgather}, {@code mpj.coll.allreduce}, {@code mpj.coll.alltoall}) forces one
 * algorithm instead of {@code auto}, so every algorithm can be tested and compared.
 *
 * <pre>
 * bcast      n &lt; 12 KiB or P &lt; 8                      binomial tree
 *            n &lt; 512 KiB and P a power of two          scatter + recursive-doubling allgather
 *            otherwise                                  scatter + ring allgather
 * allgather  P·n &lt; 512 KiB and P a power of two        recursive doubling
 *            P·n &lt; 80 KiB                              recursive doubling (with the fold step)
 *            otherwise                                  ring
 * allreduce  non-commutative op, n ≤ 2 KiB, or fewer items than 2^⌊log2 P⌋   recursive doubling
 *            n ≥ 512 KiB and P not a power of two       ring (ours: avoids Rabenseifner's fold)
 *            otherwise                                  Rabenseifner (reduce-scatter + allgather)
 * alltoall   block ≤ 256 B and P ≥ 8                    Bruck
 *            block ≤ 32 KiB, or P = 2                   all sends and receives posted at once (P = 2: one exchange)
 *            otherwise                                  pairwise exchange
 * gather, scatter, reduce: binomial tree; the v-variants: linear; reduce-scatter: reduce + scatterv;
 * scan: recursive doubling; barrier: dissemination.
 * </pre>
 * (n is the message size in bytes; for alltoall, the size of one block.)
 *
 * <p>Ahead of these rules, on a communicator that spans several nodes with two or more of its ranks on some
 * node, {@code mpj.coll.hierarchical} ({@link Hierarchical}) picks the node-aware variants: {@code on} wherever
 * they are correct, {@code off} never, and {@code auto} where measured to win (docs/PERFORMANCE.md):
 * <pre>
 * barrier    always
 * bcast      n ≥ 12 KiB (where the flat choice leaves the binomial tree), or the nodes are not rank ranges
 * reduce, allreduce   n &gt; 2 KiB
 * allgather  P·n &lt; 128 KiB
 * </pre>
 * Those variants run these rules in turn, within a node and among the node leaders.
 */
public final class CollectiveTuning {
    /** MPIR_CVAR_BCAST_SHORT_MSG_SIZE. */
    public static final int BCAST_SHORT_MSG = 12288;
    /** MPIR_CVAR_BCAST_LONG_MSG_SIZE. */
    public static final int BCAST_LONG_MSG = 524288;
    /** MPIR_CVAR_BCAST_MIN_PROCS. */
    public static final int BCAST_MIN_PROCS = 8;
    /** MPIR_CVAR_ALLGATHER_SHORT_MSG_SIZE (total bytes gathered). */
    public static final int ALLGATHER_SHORT_MSG = 81920;
    /** MPIR_CVAR_ALLGATHER_LONG_MSG_SIZE (total bytes gathered). */
    public static final int ALLGATHER_LONG_MSG = 524288;
    /** MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE. */
    public static final int ALLREDUCE_SHORT_MSG = 2048;
    /** Ours: from here on, for P not a power of two, the ring beats Rabenseifner's extra fold. */
    public static final int ALLREDUCE_RING_MSG = 524288;
    /** MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE (bytes per block). */
    public static final int ALLTOALL_SHORT_MSG = 256;
    /** MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE (bytes per block). */
    public static final int ALLTOALL_MEDIUM_MSG = 32768;
    /** Ours: node-aware allgather below this many bytes gathered (measured up to 128 KiB). */
    public static final int NODE_AWARE_ALLGATHER_MSG = 131072;
    /** MPIR_CVAR_ALLTOALL_MIN_PROCS (for Bruck). */
    public static final int ALLTOALL_MIN_PROCS = 8;

    private final Bcast bcast;
    private final Allgather allgather;
    private final Allreduce allreduce;
    private final Alltoall alltoall;
    private final Hierarchical hierarchical;

    public CollectiveTuning(Bcast bcast, Allgather allgather, Allreduce allreduce, Alltoall alltoall,
                            Hierarchical hierarchical) {
        this.bcast = bcast;
        this.allgather = allgather;
        this.allreduce = allreduce;
        this.alltoall = alltoall;
        this.hierarchical = hierarchical;
    }

    /** These algorithms, with the node-aware variants where they win. */
    public CollectiveTuning(Bcast bcast, Allgather allgather, Allreduce allreduce, Alltoall alltoall) {
        this(bcast, allgather, allreduce, alltoall, Hierarchical.AUTO);
    }

    /** Every algorithm chosen by size and count. */
    public static CollectiveTuning automatic() {
        return new CollectiveTuning(Bcast.AUTO, Allgather.AUTO, Allreduce.AUTO, Alltoall.AUTO);
    }

    /** The same choices, with the node-aware variants as {@code mode} says. */
    public CollectiveTuning with(Hierarchical mode) {
        return new CollectiveTuning(bcast, allgather, allreduce, alltoall, mode);
    }

    /** The choices of the {@code mpj.coll.*} settings. */
    public static CollectiveTuning from(Settings settings) {
        return new CollectiveTuning(settings.bcastAlgorithm(), settings.allgatherAlgorithm(),
                settings.allreduceAlgorithm(), settings.alltoallAlgorithm(), settings.hierarchicalCollectives());
    }

    /** Whether collective {@code kind} has its algorithm chosen here rather than forced by a setting. */
    boolean automatic(CollectiveKind kind) {
        return switch (kind) {
            case BCAST -> bcast == Bcast.AUTO;
            case ALLGATHER -> allgather == Allgather.AUTO;
            case REDUCE, ALLREDUCE -> allreduce == Allreduce.AUTO;
            case ALLTOALL -> alltoall == Alltoall.AUTO;
            default -> true;
        };
    }

    /** Whether no collective ever runs node-aware. */
    boolean flatOnly() {
        return hierarchical == Hierarchical.OFF;
    }

    /**
     * Whether collective {@code kind} on {@code bytes} (for allgather: all the bytes gathered) runs node-aware
     * on {@code layout}. Only worth asking where the variant is correct for the layout and operation.
     */
    boolean nodeAware(CollectiveKind kind, long bytes, NodeLayout layout) {
        if (hierarchical == Hierarchical.OFF || !layout.spansSharedNodes()) {
            return false;
        }
        if (hierarchical == Hierarchical.ON) {
            return true;
        }
        return switch (kind) {
            case BARRIER -> true;
            // below 12 KiB the flat binomial tree over rank ranges already crosses between nodes once per node
            case BCAST -> bytes >= BCAST_SHORT_MSG || !layout.contiguous();
            // short vectors: recursive doubling's log2 P steps beat the node-aware variant's three phases
            case REDUCE, ALLREDUCE -> bytes > ALLREDUCE_SHORT_MSG;
            case ALLGATHER -> bytes < NODE_AWARE_ALLGATHER_MSG;
            default -> false;
        };
    }

    Bcast bcast(int bytes, int p) {
        if (bcast != Bcast.AUTO) {
            return bcast;
        }
        if (bytes < BCAST_SHORT_MSG || p < BCAST_MIN_PROCS) {
            return Bcast.BINOMIAL;
        }
        return bytes < BCAST_LONG_MSG && Bytes.isPowerOfTwo(p) ? Bcast.SCATTER_DOUBLING : Bcast.SCATTER_RING;
    }

    Allgather allgather(long totalBytes, int p) {
        if (allgather != Allgather.AUTO) {
            return allgather;
        }
        if (totalBytes < ALLGATHER_LONG_MSG && Bytes.isPowerOfTwo(p) || totalBytes < ALLGATHER_SHORT_MSG) {
            return Allgather.RECURSIVE_DOUBLING;
        }
        return Allgather.RING;
    }

    Allreduce allreduce(int bytes, int p, Reduction op) {
        if (!op.isCommutative()) {
            return Allreduce.RECURSIVE_DOUBLING;
        }
        if (allreduce != Allreduce.AUTO) {
            return allreduce;
        }
        if (bytes <= ALLREDUCE_SHORT_MSG || bytes / op.itemBytes() < Bytes.floorPowerOfTwo(p)) {
            return Allreduce.RECURSIVE_DOUBLING;
        }
        return bytes >= ALLREDUCE_RING_MSG && !Bytes.isPowerOfTwo(p) ? Allreduce.RING : Allreduce.RABENSEIFNER;
    }

    Alltoall alltoall(int blockBytes, int p) {
        if (alltoall != Alltoall.AUTO) {
            return alltoall;
        }
        if (blockBytes <= ALLTOALL_SHORT_MSG && p >= ALLTOALL_MIN_PROCS) {
            return Alltoall.BRUCK;
        }
        // two members: the scattered and the pairwise exchange are the same one exchange, so one answer for every
        // size; a second would be a branch the entry's compiled code has never taken when blocks grow past 32 KiB,
        // and taking it discards that code, which the calls then run without until it is compiled again
        return blockBytes <= ALLTOALL_MEDIUM_MSG || p == 2 ? Alltoall.SCATTERED : Alltoall.PAIRWISE;
    }
}
