package dev.mpj.it;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * MPI from several threads of every rank at once, under {@code THREAD_MULTIPLE}. The main thread gives each
 * thread a {@code Dup} of {@code COMM_WORLD} (collectives on one communicator must be ordered, so in turn); each
 * thread duplicates its own again, all threads at once, then, round after round: a blocking ping-pong with the
 * same thread of its partner rank on that communicator, small and past the eager threshold; tagged
 * {@code ANY_SOURCE} traffic with every other rank on {@code COMM_WORLD}, one tag per thread; an
 * {@code Allreduce} and an {@code Alltoall} of 32 KiB blocks on its communicator (at np 2 one of the communicators
 * takes the node segment's fold room, the others point-to-point); and a receive it starts and another thread
 * completes. Every value is
 * checked; a failure aborts the job. Arguments: rounds (default 3), threads per rank (default 8); an even
 * number of ranks.
 */
public final class ThreadsProgram {
    private static final int LARGE = 20_000; // ints: past the default eager threshold of 64 KiB
    private static final int ANY_SOURCE_TAG = 100;
    private static final int HAND_OFF_TAG = 300;
    private static int rank;
    private static int size;

    private ThreadsProgram() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int provided = MPI.Init_thread(args, MPI.THREAD_MULTIPLE);
        Check.equal(MPI.THREAD_MULTIPLE, provided, "thread level provided");
        rank = MPI.COMM_WORLD.Rank();
        size = MPI.COMM_WORLD.Size();
        Check.that(size % 2 == 0, "an even number of ranks, as ranks pair up");
        Intracomm[] parents = new Intracomm[threads];
        for (int t = 0; t < threads; t++) {
            parents[t] = MPI.COMM_WORLD.Dup();
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            workers.add(pool.submit(() -> worker(parents[thread], thread, rounds)));
        }
        for (Future<?> w : workers) {
            w.get();
        }
        pool.shutdown();
        Check.done("threads");
        MPI.Finalize();
    }

    private static void worker(Intracomm parent, int thread, int rounds) {
        try {
            Intracomm comm = parent.Dup();
            for (int round = 0; round < rounds; round++) {
                pingPong(comm, thread, round, 1, 10);
                pingPong(comm, thread, round, LARGE, 2);
                anySource(thread, round);
                allreduce(comm, thread, round);
                alltoall(comm, thread, round);
                handOff(comm, thread, round);
            }
            comm.Free();
            parent.Free();
        } catch (Throwable e) {
            System.err.println("rank " + rank + " thread " + thread + " failed:");
            e.printStackTrace();
            MPI.COMM_WORLD.Abort(3);
        }
    }

    private static int value(int thread, int round, int i, int k) {
        return thread * 1_000_000 + round * 10_000 + i * 100 + k % 97;
    }

    /** The even rank sends, the odd one checks and answers every element plus one. */
    private static void pingPong(Intracomm comm, int thread, int round, int count, int times) {
        int partner = rank ^ 1;
        int[] buf = new int[count];
        for (int i = 0; i < times; i++) {
            if (rank % 2 == 0) {
                for (int k = 0; k < count; k++) {
                    buf[k] = value(thread, round, i, k);
                }
                comm.Send(buf, 0, count, MPI.INT, partner, thread);
                Status s = comm.Recv(buf, 0, count, MPI.INT, partner, thread);
                Check.equal(count, s.Get_count(MPI.INT), "ping-pong answer count");
                for (int k = 0; k < count; k++) {
                    Check.equal(value(thread, round, i, k) + 1, buf[k], "ping-pong answer element " + k);
                }
            } else {
                comm.Recv(buf, 0, count, MPI.INT, partner, thread);
                for (int k = 0; k < count; k++) {
                    Check.equal(value(thread, round, i, k), buf[k], "ping-pong element " + k);
                    buf[k]++;
                }
                comm.Send(buf, 0, count, MPI.INT, partner, thread);
            }
        }
    }

    /** One message from every other rank, received from any source with this thread's tag. */
    private static void anySource(int thread, int round) {
        int tag = ANY_SOURCE_TAG + thread;
        Request[] sends = new Request[size - 1];
        int n = 0;
        for (int r = 0; r < size; r++) {
            if (r != rank) {
                sends[n++] = MPI.COMM_WORLD.Isend(new int[] {rank, thread, round}, 0, 3, MPI.INT, r, tag);
            }
        }
        Set<Integer> sources = new HashSet<>();
        for (int i = 0; i < size - 1; i++) {
            int[] got = new int[3];
            Status s = MPI.COMM_WORLD.Recv(got, 0, 3, MPI.INT, MPI.ANY_SOURCE, tag);
            Check.equal(s.source, got[0], "any-source status names the sender");
            Check.equal(thread, got[1], "any-source message of this thread's tag");
            Check.equal(round, got[2], "any-source message of this round");
            Check.that(sources.add(got[0]), "one any-source message from rank " + got[0]);
        }
        Request.Waitall(sends);
    }

    private static void allreduce(Intracomm comm, int thread, int round) {
        int[] in = {rank + 1, thread, round};
        int[] sum = new int[3];
        comm.Allreduce(in, 0, sum, 0, 3, MPI.INT, MPI.SUM);
        Check.equal((long) size * (size + 1) / 2, sum[0], "allreduce sum of ranks");
        Check.equal((long) thread * size, sum[1], "allreduce of the thread's communicator");
        Check.equal((long) round * size, sum[2], "allreduce of this round");
    }

    private static void alltoall(Intracomm comm, int thread, int round) {
        int block = 8192;
        int[] out = new int[block * size];
        for (int i = 0; i < out.length; i++) {
            out[i] = value(thread, round, rank, i);
        }
        int[] in = new int[out.length];
        comm.Alltoall(out, 0, block, MPI.INT, in, 0, block, MPI.INT);
        int[] expected = new int[in.length];
        for (int r = 0; r < size; r++) {
            for (int k = 0; k < block; k++) {
                expected[r * block + k] = value(thread, round, r, rank * block + k);
            }
        }
        Check.that(Arrays.equals(expected, in), "alltoall blocks, first difference at element "
                + Arrays.mismatch(expected, in));
    }

    /** A receive started here and completed by a helper thread, while this one sends. */
    private static void handOff(Intracomm comm, int thread, int round) throws InterruptedException {
        int partner = rank ^ 1;
        int[] got = new int[1];
        Request receive = comm.Irecv(got, 0, 1, MPI.INT, partner, HAND_OFF_TAG);
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread helper = new Thread(() -> {
            try {
                outcome.set(receive.Wait());
            } catch (RuntimeException e) {
                outcome.set(e);
            }
        }, "hand-off-" + thread);
        helper.start();
        comm.Send(new int[] {value(thread, round, partner, rank)}, 0, 1, MPI.INT, partner, HAND_OFF_TAG);
        helper.join();
        if (outcome.get() instanceof RuntimeException e) {
            throw e;
        }
        Check.equal(partner, ((Status) outcome.get()).source, "hand-off source");
        Check.equal(value(thread, round, rank, partner), got[0], "hand-off value");
    }
}
