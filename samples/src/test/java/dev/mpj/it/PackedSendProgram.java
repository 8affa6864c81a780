package dev.mpj.it;

import dev.mpj.runtime.MpjRuntime;
import mpi.MPI;
import mpi.Request;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Sends {@code double[]} and {@code int[]} around the ring of ranks, packed by the runtime before they go, at sizes
 * from eager through rendezvous to one above what a thread keeps, at an offset into the array, with {@code Isend}
 * and with {@code Send}, round after round so the packed buffers are reused; every value is checked. Prints how
 * many messages the rank copied straight out of its peer's memory ({@code shared copies N rank R}) and, when
 * {@code MPJ_SEGMENT_DIR} names the segment directory, how many region files the rank holds before Finalize
 * ({@code region files N rank R}).
 */
public final class PackedSendProgram {
    /** Elements per message: eager, rendezvous (the stencil's 128 KiB face), 1 MiB, and above 4 MiB. */
    private static final int[] COUNTS = {100, 16_384, 131_072, (1 << 19) + 3};
    private static final int OFFSET = 7;
    private static final int ROUNDS = 4;

    private PackedSendProgram() {
    }

    public static void main(String[] args) throws IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int next = (rank + 1) % size;
        int prev = (rank - 1 + size) % size;
        int tag = 0;
        for (int round = 0; round < ROUNDS; round++) {
            for (int n : COUNTS) {
                double[] doublesOut = new double[n + OFFSET];
                double[] doublesIn = new double[n + OFFSET];
                int[] intsOut = new int[n + OFFSET];
                int[] intsIn = new int[n + OFFSET];
                for (int i = 0; i < n; i++) {
                    doublesOut[OFFSET + i] = value(rank, tag, i) + 0.25;
                    intsOut[OFFSET + i] = value(rank, tag + 1, i);
                }
                Request recvDoubles = MPI.COMM_WORLD.Irecv(doublesIn, OFFSET, n, MPI.DOUBLE, prev, tag);
                Request recvInts = MPI.COMM_WORLD.Irecv(intsIn, OFFSET, n, MPI.INT, prev, tag + 1);
                Request sendDoubles = MPI.COMM_WORLD.Isend(doublesOut, OFFSET, n, MPI.DOUBLE, next, tag);
                if (round % 2 == 0) {
                    Request sendInts = MPI.COMM_WORLD.Isend(intsOut, OFFSET, n, MPI.INT, next, tag + 1);
                    Request.Waitall(new Request[] {recvDoubles, recvInts, sendDoubles, sendInts});
                } else {
                    // every receive is posted: a blocking rendezvous send finds its match
                    MPI.COMM_WORLD.Send(intsOut, OFFSET, n, MPI.INT, next, tag + 1);
                    Request.Waitall(new Request[] {recvDoubles, recvInts, sendDoubles});
                }
                for (int i = 0; i < n; i++) {
                    if (doublesIn[OFFSET + i] != value(prev, tag, i) + 0.25 || intsIn[OFFSET + i] != value(prev,
                            tag + 1, i)) {
                        Check.that(false, "element " + i + " of " + n + " from rank " + prev + " (tag " + tag
                                + "): " + doublesIn[OFFSET + i] + ", " + intsIn[OFFSET + i]);
                    }
                }
                tag += 2;
            }
        }
        System.out.println("shared copies " + MpjRuntime.current().sharedRegionReceives() + " rank " + rank);
        String dir = System.getenv("MPJ_SEGMENT_DIR");
        if (dir != null) {
            try (Stream<Path> files = Files.list(Path.of(dir))) {
                long mine = files.filter(f -> f.getFileName().toString().contains(".mem-" + rank + "-")).count();
                System.out.println("region files " + mine + " rank " + rank);
            }
        }
        Check.done("packedsend");
        MPI.Finalize();
    }

    /** Element {@code i} of message {@code tag} from {@code rank}: differs between messages, senders and places. */
    private static int value(int rank, int tag, int i) {
        return i * 31 + tag * 7 + rank * 100_003 + (i >>> 8);
    }
}
