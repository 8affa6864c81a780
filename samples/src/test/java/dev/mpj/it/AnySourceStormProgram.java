package dev.mpj.it;

import mpi.MPI;
import mpi.Status;

/**
 * Every rank but 0 sends {@code count} messages with varying tags, each carrying its sequence number;
 * rank 0 receives them all with ANY_SOURCE/ANY_TAG and checks that each sender's messages arrive in
 * order (non-overtaking) and that none is lost. Then the same with a specific tag filter.
 */
public final class AnySourceStormProgram {
    private AnySourceStormProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int count = 500;
        int[] buf = new int[2];
        if (rank == 0) {
            int[] nextSeq = new int[size];
            for (int i = 0; i < count * (size - 1); i++) {
                Status s = MPI.COMM_WORLD.Recv(buf, 0, 2, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                Check.equal(s.source, buf[0], "sender in payload");
                Check.equal(nextSeq[s.source], buf[1], "sequence from rank " + s.source);
                Check.equal(buf[1] % 5, s.tag, "tag");
                nextSeq[s.source]++;
            }
            MPI.COMM_WORLD.Barrier();
            // Tag-selective receives skip over other tags from the same sender.
            for (int src = 1; src < size; src++) {
                MPI.COMM_WORLD.Recv(buf, 0, 2, MPI.INT, src, 99);
                Check.equal(2, buf[1], "tag 99 message first");
                MPI.COMM_WORLD.Recv(buf, 0, 2, MPI.INT, src, MPI.ANY_TAG);
                Check.equal(1, buf[1], "then the earlier tag 98 message");
            }
        } else {
            for (int i = 0; i < count; i++) {
                buf[0] = rank;
                buf[1] = i;
                MPI.COMM_WORLD.Send(buf, 0, 2, MPI.INT, 0, i % 5);
            }
            MPI.COMM_WORLD.Barrier(); // phase two's tags must not meet phase one's wildcard receives
            buf[1] = 1;
            MPI.COMM_WORLD.Send(buf, 0, 2, MPI.INT, 0, 98);
            buf[1] = 2;
            MPI.COMM_WORLD.Send(buf, 0, 2, MPI.INT, 0, 99);
        }
        MPI.COMM_WORLD.Barrier();
        Check.done("storm");
        MPI.Finalize();
    }
}
