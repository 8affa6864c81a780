package dev.mpj.runtime.connect;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EagerScheduleTest {
    @Test
    void everyPairIsConnectedFromExactlyOneSide() {
        for (int size = 1; size <= 40; size++) {
            Set<Long> pairs = new HashSet<>();
            for (int r = 0; r < size; r++) {
                for (EagerSchedule.Step s : EagerSchedule.steps(r, size, p -> true)) {
                    long pair = (long) Math.min(r, s.peer()) * size + Math.max(r, s.peer());
                    assertTrue(pairs.add(pair), "pair " + r + "-" + s.peer() + " twice at size " + size);
                }
            }
            assertEquals(size * (size - 1) / 2, pairs.size(), "pairs at size " + size);
        }
    }

    @Test
    void ranksOpenAboutHalfTheirConnections() {
        int size = 16;
        for (int r = 0; r < size; r++) {
            int n = EagerSchedule.steps(r, size, p -> true).size();
            assertTrue(n == 7 || n == 8, "rank " + r + " opens " + n);
        }
    }

    @Test
    void roundKConnectsToTheRankKFurtherOn() {
        List<EagerSchedule.Step> steps = EagerSchedule.steps(5, 9, p -> true);
        assertEquals(List.of(new EagerSchedule.Step(1, 6), new EagerSchedule.Step(2, 7),
                new EagerSchedule.Step(3, 8), new EagerSchedule.Step(4, 0)), steps);
    }

    @Test
    void peersReachedOtherwiseAreLeftOut() {
        // ranks 0-3 on one node, 4-7 on another: rank 1 connects only to the other node
        List<EagerSchedule.Step> steps = EagerSchedule.steps(1, 8, p -> p >= 4);
        assertTrue(steps.stream().allMatch(s -> s.peer() >= 4), steps.toString());
        assertEquals(List.of(4, 5), steps.stream().map(EagerSchedule.Step::peer).toList());
    }

    @Test
    void aRankOutsideTheJobIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> EagerSchedule.steps(4, 4, p -> true));
    }
}
