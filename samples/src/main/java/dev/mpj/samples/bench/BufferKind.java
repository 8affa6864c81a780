package dev.mpj.samples.bench;

import dev.mpj.runtime.MpjRuntime;
import mpi.MPI;

import java.nio.ByteBuffer;

/**
 * Where a point-to-point benchmark's messages live, as OSU's benchmarks let the user pick host or device memory:
 * Java arrays, or {@code MPI.Alloc_mem} memory, from which a shared-memory rendezvous is copied once, by the
 * receiver, straight out of the sender's memory.
 */
enum BufferKind {
    HEAP("heap"),
    ALLOC_MEM("alloc-mem");

    /** The name {@code --buffer} takes. */
    final String option;

    BufferKind(String option) {
        this.option = option;
    }

    /** @throws IllegalArgumentException when {@code option} names no kind */
    static BufferKind of(String option) {
        for (BufferKind kind : values()) {
            if (kind.option.equals(option)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("--buffer: heap or alloc-mem, not " + option);
    }

    /** A buffer of {@code size} bytes of this kind, to send or receive as {@code MPI.BYTE}. */
    Object allocate(int size) {
        return this == HEAP ? new byte[size] : MPI.Alloc_mem(size);
    }

    /** Gives back a buffer {@link #allocate} returned. */
    void free(Object buffer) {
        if (this == ALLOC_MEM) {
            MPI.Free_mem((ByteBuffer) buffer);
        }
    }

    /**
     * For {@code alloc-mem}, a line from rank 0 saying how many receives, over all ranks, were copied straight out of
     * a peer's {@code Alloc_mem} memory, so that a run shows which path its figures took; nothing for {@code heap}.
     * Collective when {@code alloc-mem}.
     */
    void reportPath(int rank) {
        if (this == ALLOC_MEM) {
            long[] mine = {MpjRuntime.current().sharedRegionReceives()};
            long[] all = new long[1];
            MPI.COMM_WORLD.Reduce(mine, 0, all, 0, 1, MPI.LONG, MPI.SUM, 0);
            if (rank == 0) {
                System.out.println("# " + all[0] + " receives copied out of the peer's Alloc_mem memory");
            }
        }
    }
}
