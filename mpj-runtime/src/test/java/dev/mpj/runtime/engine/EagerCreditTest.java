package dev.mpj.runtime.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class EagerCreditTest {
    private final EagerCredit credit = new EagerCredit(4096);

    @Test
    void senderChargesUpToTheBudgetPerPeerAndNoFurther() {
        assertTrue(credit.tryCharge(1, 3000));
        assertFalse(credit.tryCharge(1, 1097), "3000 + 1097 is beyond 4096");
        assertTrue(credit.tryCharge(1, 1096));
        assertTrue(credit.tryCharge(2, 4096), "each peer has its own budget");
        assertEquals(4096, credit.outstanding(1));
        credit.returned(1, 3000);
        assertEquals(1096, credit.outstanding(1));
        assertTrue(credit.tryCharge(1, 3000));
    }

    @Test
    void messagesNoBiggerThanARendezvousRequestAreNeverCharged() {
        EagerCredit none = new EagerCredit(0);
        for (int i = 0; i < 1000; i++) {
            assertTrue(none.tryCharge(1, EagerCredit.FREE_BYTES));
        }
        assertFalse(none.tryCharge(1, EagerCredit.FREE_BYTES + 1));
        assertEquals(0, none.outstanding(1));
    }

    @Test
    void receiverReturnsConsumedBytesOnceHalfABudgetGathered() {
        List<long[]> sent = new ArrayList<>();
        credit.consumed(1, 1000);
        credit.consumed(1, 16); // uncharged: does not count
        assertFalse(credit.anyDue());
        credit.consumed(1, 1048);
        assertTrue(credit.anyDue());
        credit.consumed(1, 100);
        credit.drainDue((peer, bytes) -> sent.add(new long[]{peer, bytes}));
        assertEquals(1, sent.size());
        assertArrayEquals(new long[]{1, 2148}, sent.get(0));
        assertFalse(credit.anyDue());
        credit.consumed(1, 2047);
        assertFalse(credit.anyDue(), "the count starts again after a return");
    }

    @Test
    void returnsMadeDueWhileReturningAreSentToo() {
        List<Integer> peers = new ArrayList<>();
        credit.consumed(1, 2048);
        credit.drainDue((peer, bytes) -> {
            peers.add(peer);
            if (peer == 1) {
                credit.consumed(2, 2048); // as a frame handled in place during the send would
            }
        });
        assertEquals(List.of(1, 2), peers);
        assertFalse(credit.anyDue());
    }
}
