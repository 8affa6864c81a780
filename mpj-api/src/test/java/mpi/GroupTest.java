package mpi;

import static mpi.MpiTestSupport.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Group membership, set operations and rank translation, on groups of world ranks built directly. */
class GroupTest {
    /** A group of these world ranks, seen from the process of world rank {@code self}. */
    private static Group group(int self, int... worldRanks) {
        return new Group(worldRanks, self);
    }

    private static int[] members(Group g) {
        return g.usableMembers("test");
    }

    @Test
    void rankIsThePositionOfTheCallerAmongTheMembers() {
        Group g = group(7, 3, 7, 5);

        assertEquals(3, g.Size());
        assertEquals(1, g.Rank());
    }

    @Test
    void rankIsUndefinedForAProcessOutsideTheGroup() {
        assertEquals(MPI.UNDEFINED, group(4, 3, 7, 5).Rank());
    }

    @Test
    void emptyGroupHasNoMembersAndNoRank() {
        assertEquals(0, MPI.GROUP_EMPTY.Size());
        assertEquals(MPI.UNDEFINED, MPI.GROUP_EMPTY.Rank());
    }

    @Test
    void inclTakesTheMembersAtTheGivenRanksInTheGivenOrder() {
        Group g = group(2, 10, 11, 12, 13, 14);

        assertArrayEquals(new int[] {14, 11, 12}, members(g.Incl(new int[] {4, 1, 2})));
        assertEquals(0, g.Incl(new int[0]).Size());
    }

    @Test
    void exclKeepsTheOtherMembersInTheirOrder() {
        Group g = group(2, 10, 11, 12, 13, 14);

        assertArrayEquals(new int[] {10, 12, 13}, members(g.Excl(new int[] {4, 1})));
    }

    @Test
    void rangeInclExpandsTripletsCountingUpAndDown() {
        Group g = group(0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);

        Group picked = g.Range_incl(new int[][] {{0, 6, 3}, {9, 7, -1}, {1, 1, 5}});

        assertArrayEquals(new int[] {0, 3, 6, 9, 8, 7, 1}, members(picked));
    }

    @Test
    void rangeExclDropsTheExpandedRanks() {
        Group g = group(0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);

        assertArrayEquals(new int[] {1, 3, 5, 7, 8}, members(g.Range_excl(new int[][] {{0, 6, 2}, {9, 9, 1}})));
    }

    @Test
    void unionIsTheFirstGroupThenTheNewMembersOfTheSecond() {
        Group a = group(5, 1, 5, 3);
        Group b = group(5, 4, 3, 2, 1);

        assertArrayEquals(new int[] {1, 5, 3, 4, 2}, members(Group.Union(a, b)));
    }

    @Test
    void intersectionAndDifferenceKeepTheOrderOfTheFirstGroup() {
        Group a = group(5, 1, 5, 3, 9);
        Group b = group(5, 9, 3, 2);

        assertArrayEquals(new int[] {3, 9}, members(Group.Intersection(a, b)));
        assertArrayEquals(new int[] {1, 5}, members(Group.Difference(a, b)));
    }

    @Test
    void aGroupMadeFromTheEmptyGroupStillKnowsTheCaller() {
        Group mine = group(5, 1, 5);

        assertEquals(1, Group.Union(MPI.GROUP_EMPTY, mine).Rank());
        assertEquals(MPI.UNDEFINED, Group.Intersection(MPI.GROUP_EMPTY, mine).Rank());
    }

    @Test
    void translateRanksFindsTheSameProcessInTheOtherGroup() {
        Group a = group(0, 10, 11, 12, 13);
        Group b = group(0, 13, 12, 99);

        int[] ranks = Group.Translate_ranks(a, new int[] {3, 2, 0, MPI.PROC_NULL}, b);

        assertArrayEquals(new int[] {0, 1, MPI.UNDEFINED, MPI.PROC_NULL}, ranks);
    }

    @Test
    void compareTellsIdenticalFromReorderedFromDifferentMembers() {
        Group a = group(0, 1, 2, 3);

        assertEquals(MPI.IDENT, Group.Compare(a, group(0, 1, 2, 3)));
        assertEquals(MPI.SIMILAR, Group.Compare(a, group(0, 3, 1, 2)));
        assertEquals(MPI.UNEQUAL, Group.Compare(a, group(0, 1, 2)));
        assertEquals(MPI.UNEQUAL, Group.Compare(a, group(0, 1, 2, 4)));
    }

    @Test
    void ranksOutsideTheGroupOrRepeatedAreRankErrors() {
        Group g = group(0, 4, 5, 6);

        assertMpiError(MPI.ERR_RANK, () -> g.Incl(new int[] {0, 3}));
        assertMpiError(MPI.ERR_RANK, () -> g.Incl(new int[] {-1}));
        assertMpiError(MPI.ERR_RANK, () -> g.Excl(new int[] {1, 1}));
        assertMpiError(MPI.ERR_RANK, () -> g.Range_incl(new int[][] {{0, 2, 1}, {1, 1, 1}}));
        assertMpiError(MPI.ERR_RANK, () -> g.Range_incl(new int[][] {{0, 3, 1}}));
        assertMpiError(MPI.ERR_RANK, () -> Group.Translate_ranks(g, new int[] {3}, g));
    }

    @Test
    void malformedRangesAndMissingArraysAreArgumentErrors() {
        Group g = group(0, 4, 5, 6);

        assertMpiError(MPI.ERR_ARG, () -> g.Incl(null));
        assertMpiError(MPI.ERR_ARG, () -> g.Range_incl(new int[][] {{0, 2, 0}}));
        assertMpiError(MPI.ERR_ARG, () -> g.Range_incl(new int[][] {{2, 0, 1}}));
        assertMpiError(MPI.ERR_ARG, () -> g.Range_excl(new int[][] {{0, 2}}));
        assertMpiError(MPI.ERR_ARG, () -> Group.Translate_ranks(g, null, g));
    }

    @Test
    void aHugeStrideStopsAtTheEndOfTheRange() {
        Group g = group(0, 4, 5, 6);

        assertArrayEquals(new int[] {6}, members(g.Range_incl(new int[][] {{2, 2, Integer.MAX_VALUE}})));
        assertArrayEquals(new int[] {4}, members(g.Range_incl(new int[][] {{0, 0, Integer.MIN_VALUE}})));
    }

    @Test
    void aLastRankTheStrideNeverReachesMayLieOutsideTheGroup() {
        Group g = group(0, 10, 11, 12, 13, 14, 15);

        assertArrayEquals(new int[] {10, 14}, members(g.Range_incl(new int[][] {{0, 7, 4}})));
        assertArrayEquals(new int[] {15, 11}, members(g.Range_incl(new int[][] {{5, -2, -4}})));
        assertArrayEquals(new int[] {11, 12, 13, 15}, members(g.Range_excl(new int[][] {{0, 7, 4}})));
    }

    @Test
    void aGeneratedRankOutsideTheGroupIsStillARankError() {
        Group g = group(0, 10, 11, 12, 13, 14, 15);

        assertMpiError(MPI.ERR_RANK, () -> g.Range_incl(new int[][] {{0, 9, 3}}));
        assertMpiError(MPI.ERR_RANK, () -> g.Range_excl(new int[][] {{2, -1, -1}}));
        assertMpiError(MPI.ERR_RANK, () -> g.Range_incl(new int[][] {{6, 9, 4}}));
    }

    @Test
    void aFreedOrNullGroupIsAGroupError() {
        Group g = group(0, 4, 5, 6);
        g.free();

        assertMpiError(MPI.ERR_GROUP, g::Size);
        assertMpiError(MPI.ERR_GROUP, () -> Group.Union(g, MPI.GROUP_EMPTY));
        assertMpiError(MPI.ERR_GROUP, () -> Group.Compare(null, MPI.GROUP_EMPTY));
    }

    @Test
    void freeingTheEmptyGroupLeavesItUsable() {
        MPI.GROUP_EMPTY.free();

        assertEquals(0, MPI.GROUP_EMPTY.Size());
    }
}
