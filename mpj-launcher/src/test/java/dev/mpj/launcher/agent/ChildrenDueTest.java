package dev.mpj.launcher.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

@Timeout(30)
class ChildrenDueTest {
    @Test
    void eachChildIsAdmittedOnceAndOnlyIfExpected() throws InterruptedException {
        ChildrenDue due = new ChildrenDue(List.of(1, 2));
        assertEquals(ChildrenDue.Admission.NOT_A_CHILD, due.admit(3));
        assertEquals(ChildrenDue.Admission.ADMITTED, due.admit(2));
        assertEquals(ChildrenDue.Admission.ALREADY_CONNECTED, due.admit(2));
        assertEquals(ChildrenDue.Admission.ADMITTED, due.admit(1));
        assertEquals(List.of(), due.await(0), "all came");
    }

    @Test
    void theMissingAreNamedInTreeOrderAndThoseLaterTurnedAway() throws InterruptedException {
        ChildrenDue due = new ChildrenDue(List.of(4, 5, 6));
        due.admit(5);
        assertEquals(List.of(4, 6), due.await(10));
        assertEquals(ChildrenDue.Admission.TOO_LATE, due.admit(4));
    }

    /** A child that arrives as the wait ends is either admitted or named missing, never both nor neither. */
    @Test
    void aChildArrivingAsTheWaitEndsIsAdmittedOrNamedMissingNeverBoth() throws Exception {
        for (int trial = 0; trial < 300; trial++) {
            ChildrenDue due = new ChildrenDue(List.of(1));
            CompletableFuture<List<Integer>> missing = CompletableFuture.supplyAsync(() -> {
                try {
                    return due.await(1);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(0, trial % 2 == 0 ? 0 : 500_000);
            boolean in = due.admit(1) == ChildrenDue.Admission.ADMITTED;
            assertNotEquals(in, missing.get().contains(1), "trial " + trial);
        }
    }
}
