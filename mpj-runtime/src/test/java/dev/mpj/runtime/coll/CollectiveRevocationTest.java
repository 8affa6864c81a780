package dev.mpj.runtime.coll;

import dev.mpj.api.CommSpec;
import mpi.MPIException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;

import static dev.mpj.runtime.coll.TestVectors.SUM;
import static dev.mpj.runtime.coll.TestVectors.of;
import static dev.mpj.runtime.coll.TestVectors.zeros;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One member of four passes half the count the others pass: whichever member detects it raises its own error,
 * and every member, detecting or not, leaves the collective (or the barrier after it, for a member whose part
 * was over) with an {@code MPIException}; none hangs.
 */
@Timeout(60)
class CollectiveRevocationTest {
    private static final int NP = 4;
    private static final int ODD = 2;
    private static final int BYTES = 64;

    enum Call {
        BCAST, REDUCE, ALLREDUCE, GATHER, ALLGATHER;

        void run(Collectives coll, CommSpec comm, int bytes) {
            switch (this) {
                case BCAST -> coll.bcast(comm, of(0, bytes, 1), 0);
                case REDUCE -> coll.reduce(comm, of(comm.rank(), bytes, 1),
                        comm.rank() == 0 ? zeros(bytes) : null, SUM, 0);
                case ALLREDUCE -> coll.allreduce(comm, of(comm.rank(), bytes, 1), zeros(bytes), SUM);
                case GATHER -> coll.gather(comm, of(comm.rank(), bytes, 1),
                        comm.rank() == 0 ? zeros(bytes * comm.size()) : null, 0);
                case ALLGATHER -> coll.allgather(comm, of(comm.rank(), bytes, 1), zeros(bytes * comm.size()));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Call.class)
    void aMismatchedCountFailsTheCollectiveAtEveryMember(Call call) {
        MPIException[] seen = new MPIException[NP];
        new ThreadedJob(NP, CollectiveTuning.automatic()).run((coll, comm) -> {
            try {
                call.run(coll, comm, comm.rank() == ODD ? BYTES / 2 : BYTES);
                coll.barrier(comm);
            } catch (MPIException e) {
                seen[comm.rank()] = e;
            }
        });
        int detected = 0;
        for (int r = 0; r < NP; r++) {
            assertNotNull(seen[r], "rank " + r + " raised no error");
            if (seen[r].getErrorClass() != MPIException.ERR_REVOKED) {
                detected++;
            }
        }
        assertTrue(detected > 0, "some member detected the mismatch itself");
        for (int r = 0; r < NP; r++) {
            if (seen[r].getErrorClass() == MPIException.ERR_REVOKED) {
                int origin = originOf(seen[r]);
                assertNotEquals(MPIException.ERR_REVOKED, seen[origin].getErrorClass(),
                        "rank " + r + " names rank " + origin + ", which detected nothing: " + seen[r].getMessage());
            }
        }
    }

    /** The world rank a revocation names ("... failed at world rank N: ..."), which is the member here. */
    private static int originOf(MPIException e) {
        String m = e.getMessage();
        String marker = "world rank ";
        int at = m.indexOf(marker);
        assertTrue(at >= 0, m);
        int from = at + marker.length();
        int to = m.indexOf(':', from);
        return Integer.parseInt(m.substring(from, to));
    }
}
