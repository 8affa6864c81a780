package mpi;

import static mpi.MpiTestSupport.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bitmap of free context pairs and the agreement rule over several processes' bitmaps. */
class ContextIdsTest {
    @Test
    void worldAndSelfHoldTheFirstTwoPairs() {
        ContextIds ids = new ContextIds();

        assertFalse(ids.isFree(ContextIds.WORLD_PAIR));
        assertFalse(ids.isFree(ContextIds.SELF_PAIR));
        assertEquals(2, ContextIds.lowestFree(ids.freeBits()));
        assertEquals(4, ContextIds.pointToPoint(2));
        assertEquals(5, ContextIds.collective(2));
        assertEquals(2, ContextIds.pairOf(4));
    }

    @Test
    void theAgreedPairIsTheLowestFreeInEveryProcess() {
        ContextIds a = new ContextIds();
        ContextIds b = new ContextIds();
        a.reserve(2);
        b.reserve(3);
        b.reserve(70);
        a.reserve(4);

        long[] common = and(a.freeBits(), b.freeBits());

        assertEquals(5, ContextIds.lowestFree(common));
    }

    @Test
    void aReleasedPairCanBeAgreedAgain() {
        ContextIds ids = new ContextIds();
        ids.reserve(2);
        ids.reserve(3);

        ids.release(2);

        assertTrue(ids.isFree(2));
        assertEquals(2, ContextIds.lowestFree(ids.freeBits()));
    }

    @Test
    void noPairIsFoundWhenEveryPairIsTaken() {
        ContextIds ids = new ContextIds();
        for (int p = 2; p < ContextIds.PAIRS; p++) {
            ids.reserve(p);
        }

        assertEquals(-1, ContextIds.lowestFree(ids.freeBits()));
    }

    @Test
    void holdingAPairTwiceOrReleasingOneNotHeldIsAnInternalError() {
        ContextIds ids = new ContextIds();
        ids.reserve(9);

        assertMpiError(MPI.ERR_INTERN, () -> ids.reserve(9));
        assertMpiError(MPI.ERR_INTERN, () -> ids.release(10));
        assertMpiError(MPI.ERR_INTERN, () -> ids.release(ContextIds.WORLD_PAIR));
    }

    @Test
    void onlyTheAgreementOfTheLowestParentOffersTheBitmapAndOnlyOneAtATime() {
        ContextIds ids = new ContextIds();
        ids.startAgreeing(9);
        ids.startAgreeing(5);

        long[] ofNine = ids.offer(9);
        long[] ofFive = ids.offer(5);
        long[] ofFiveAgain = ids.offer(5);

        assertEquals(0, ofNine[ContextIds.WORDS], "a higher parent offers nothing while a lower one agrees");
        assertEquals(-1L, ofFive[ContextIds.WORDS]);
        assertEquals(2, ContextIds.lowestFree(ofFive));
        assertEquals(0, ofFiveAgain[ContextIds.WORDS], "the bitmap is on offer once until settled");
    }

    @Test
    void anAttemptWhereSomeMemberOfferedNothingIsTriedAgainAndReservesNothing() {
        ContextIds ids = new ContextIds();
        ids.startAgreeing(5);
        long[] mine = ids.offer(5);
        long[] othersOfferedNothing = new long[ContextIds.OFFER_WORDS];

        assertEquals(ContextIds.TRY_AGAIN, ids.settle(mine, and(mine, othersOfferedNothing), true));
        assertTrue(ids.isFree(2));

        long[] again = ids.offer(5);
        assertEquals(2, ids.settle(again, again.clone(), true));
        assertFalse(ids.isFree(2));
        ids.stopAgreeing(5);
    }

    @Test
    void aProcessOutsideTheNewCommunicatorAgreesWithoutReserving() {
        ContextIds ids = new ContextIds();
        ids.startAgreeing(1);
        long[] mine = ids.offer(1);

        assertEquals(2, ids.settle(mine, mine.clone(), false));
        assertTrue(ids.isFree(2));
    }

    private static long[] and(long[] x, long[] y) {
        long[] z = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            z[i] = x[i] & y[i];
        }
        return z;
    }
}
