package dev.mpj.it;

import dev.mpj.runtime.MpjRuntime;
import mpi.MPI;
import mpi.Request;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Sends from {@code MPI.Alloc_mem} memory around the ring of ranks, at every size from empty through eager to
 * rendezvous (an odd length among them) and at an offset into the memory, each message received into a
 * {@code byte[]} and into another {@code Alloc_mem} buffer and checked byte by byte; then an alltoall between two
 * such buffers, checked the same way; then the errors of {@code Alloc_mem} and {@code Free_mem}. Prints how many
 * of the ring's messages the rank copied straight out of its peer's memory ({@code shared copies N rank R}).
 */
public final class AllocMemProgram {
    private static final int[] SIZES = {0, 1, 4093, 100_000, 1 << 20, (4 << 20) + 5};
    private static final int[] OFFSETS = {0, 13};
    private static final int ALLTOALL_BLOCK = 1 << 20;

    private AllocMemProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int next = (rank + 1) % size;
        int prev = (rank - 1 + size) % size;
        int longest = SIZES[SIZES.length - 1] + OFFSETS[OFFSETS.length - 1];
        ByteBuffer out = MPI.Alloc_mem(longest);
        ByteBuffer landing = MPI.Alloc_mem(longest);
        Check.that(out.isDirect() && out.order() == ByteOrder.LITTLE_ENDIAN && out.capacity() == longest,
                "Alloc_mem gives a direct little-endian buffer of the size asked");
        byte[] array = new byte[longest];
        int tag = 0;
        for (int n : SIZES) {
            for (int offset : OFFSETS) {
                fill(out, offset, n, rank, tag);
                Request send = MPI.COMM_WORLD.Isend(out, offset, n, MPI.BYTE, next, tag);
                MPI.COMM_WORLD.Recv(array, 0, n, MPI.BYTE, prev, tag);
                send.Wait();
                check(ByteBuffer.wrap(array), 0, n, prev, tag, "into an array");
                MPI.COMM_WORLD.Barrier(); // the sender's buffer is refilled only once every receive has read it
                tag++;
                fill(out, offset, n, rank, tag);
                send = MPI.COMM_WORLD.Isend(out, offset, n, MPI.BYTE, next, tag);
                MPI.COMM_WORLD.Recv(landing, 0, n, MPI.BYTE, prev, tag);
                send.Wait();
                check(landing, 0, n, prev, tag, "into Alloc_mem memory");
                MPI.COMM_WORLD.Barrier();
                tag++;
            }
        }
        System.out.println("shared copies " + MpjRuntime.current().sharedRegionReceives() + " rank " + rank);
        alltoall(rank, size);
        errors(out, landing);
        Check.done("allocmem");
        MPI.Finalize();
    }

    private static void alltoall(int rank, int size) {
        ByteBuffer send = MPI.Alloc_mem(size * ALLTOALL_BLOCK);
        ByteBuffer recv = MPI.Alloc_mem(size * ALLTOALL_BLOCK);
        for (int to = 0; to < size; to++) {
            fill(send, to * ALLTOALL_BLOCK, ALLTOALL_BLOCK, rank, 1000 + to);
        }
        MPI.COMM_WORLD.Alltoall(send, 0, ALLTOALL_BLOCK, MPI.BYTE, recv, 0, ALLTOALL_BLOCK, MPI.BYTE);
        for (int from = 0; from < size; from++) {
            check(recv, from * ALLTOALL_BLOCK, ALLTOALL_BLOCK, from, 1000 + rank, "by alltoall");
        }
        MPI.Free_mem(send);
        MPI.Free_mem(recv);
    }

    private static void errors(ByteBuffer out, ByteBuffer landing) {
        Check.raises(MPI.ERR_ARG, "Alloc_mem(-1)", () -> MPI.Alloc_mem(-1));
        Check.raises(MPI.ERR_BUFFER, "Free_mem of a buffer not from Alloc_mem",
                () -> MPI.Free_mem(ByteBuffer.allocateDirect(16)));
        Check.raises(MPI.ERR_BUFFER, "Free_mem of a slice", () -> MPI.Free_mem(out.slice(0, 8)));
        MPI.Free_mem(out);
        MPI.Free_mem(landing);
        Check.raises(MPI.ERR_BUFFER, "Free_mem twice", () -> MPI.Free_mem(out));
        ByteBuffer empty = MPI.Alloc_mem(0);
        Check.equal(0, empty.capacity(), "capacity of Alloc_mem(0)");
        MPI.Free_mem(empty);
    }

    /** Byte {@code i} of message {@code tag} from {@code rank}: differs between messages, senders and places. */
    private static byte pattern(int rank, int tag, int i) {
        return (byte) (i * 31 + tag * 7 + rank * 101 + (i >>> 8));
    }

    private static void fill(ByteBuffer b, int at, int n, int rank, int tag) {
        for (int i = 0; i < n; i++) {
            b.put(at + i, pattern(rank, tag, i));
        }
    }

    private static void check(ByteBuffer b, int at, int n, int from, int tag, String how) {
        for (int i = 0; i < n; i++) {
            if (b.get(at + i) != pattern(from, tag, i)) {
                Check.that(false, "byte " + i + " of " + n + " from rank " + from + " (tag " + tag + ") " + how
                        + ": " + b.get(at + i) + " instead of " + pattern(from, tag, i));
            }
        }
    }
}
