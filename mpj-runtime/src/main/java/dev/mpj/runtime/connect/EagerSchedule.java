package dev.mpj.runtime.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Which peers a rank connects to in the eager phase, round by round, so that every pair connects exactly once
 * and every rank opens about as many connections as it accepts.
 * <p>
 * Round k (1 &le; k &le; P/2): rank r connects to (r + k) mod P. For k &lt; P/2 the pair {r, r+k} is reached
 * only from r (from the other side it would be distance P - k &gt; P/2); for even P, round P/2 would name each pair
 * twice, so only ranks below P/2 take it. Each rank opens &lfloor;(P-1)/2&rfloor; or &lceil;(P-1)/2&rceil; connections,
 * rather than the P-1 the lowest rank would open under a "lower rank initiates" rule, and in each round every
 * rank has about one connect arriving, so listeners are not flooded.
 */
public final class EagerSchedule {
    private EagerSchedule() {
    }

    /** One connect of the eager phase: in round {@code round} (from 1), connect to {@code peer}. */
    public record Step(int round, int peer) {
    }

    /**
     * The connects of {@code rank} in round order, leaving out the peers {@code needsConnection} rejects
     * (same-node peers reached over shared memory).
     *
     * @throws IllegalArgumentException if {@code rank} is not in a job of {@code size}
     */
    public static List<Step> steps(int rank, int size, IntPredicate needsConnection) {
        if (size < 1 || rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " is not in a job of " + size);
        }
        List<Step> steps = new ArrayList<>(size / 2);
        for (int k = 1; k <= size / 2; k++) {
            int peer = (rank + k) % size;
            boolean initiates = 2 * k < size || rank < size / 2;
            if (initiates && needsConnection.test(peer)) {
                steps.add(new Step(k, peer));
            }
        }
        return steps;
    }

    /** How many rounds a job of {@code size} ranks has. */
    public static int roundCount(int size) {
        return size / 2;
    }
}
