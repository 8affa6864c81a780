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
    void receiverReturnsFirstOnceAPeerSentA64thOfHalfABudget() {
        EagerCredit large = new EagerCredit(1 << 20);
        large.consumed(1, 8191);
        assertFalse(large.anyDue(), "below 8 KiB, a 64th of half the budget");
        large.consumed(1, 100);
        assertTrue(large.anyDue());
    }

    @Test
    void receiverReturnsAPeersFirstChargedMessageAtOnceWhenItIsLargeEnough() {
        List<long[]> sent = new ArrayList<>();
        credit.consumed(1, 16); // uncharged: does not count
        assertFalse(credit.anyDue());
        credit.consumed(1, 100);
        assertTrue(credit.anyDue());
        credit.consumed(2, 200);
        credit.drainDue((peer, bytes) -> sent.add(new long[]{peer, bytes}));
        assertEquals(2, sent.size(), "each peer's first charged message");
        assertArrayEquals(new long[]{2, 200}, sent.get(0));
        assertArrayEquals(new long[]{1, 100}, sent.get(1));
        assertFalse(credit.anyDue());
    }

    @Test
    void receiverReturnsAtHalvesOfHalfABudgetThenAtItsMultiples() {
        List<Long> sent = new ArrayList<>();
        EagerCredit.Returns out = (peer, bytes) -> sent.add(bytes);
        credit.consumed(1, 300);
        credit.drainDue(out); // the first: 300 is beyond 32, a 64th of half the budget
        credit.consumed(1, 200);
        assertFalse(credit.anyDue(), "500 in all: below 512, a quarter of half the budget");
        credit.consumed(1, 100);
        credit.drainDue(out); // 600 in all
        credit.consumed(1, 400);
        assertFalse(credit.anyDue(), "1000 in all: below 1024");
        credit.consumed(1, 1000);
        credit.drainDue(out); // 2000 in all
        credit.consumed(1, 40);
        assertFalse(credit.anyDue(), "2040 in all: below 2048, half the budget");
        credit.consumed(1, 100);
        credit.drainDue(out); // 2140 in all
        credit.consumed(1, 1900);
        assertFalse(credit.anyDue(), "4040 in all: below 4096, the next multiple of half the budget");
        credit.consumed(1, 56);
        credit.drainDue(out);
        assertEquals(List.of(300L, 300L, 1400L, 140L, 1956L), sent);
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
