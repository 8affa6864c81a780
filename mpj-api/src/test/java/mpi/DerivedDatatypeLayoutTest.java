package mpi;

import static mpi.MpiTestSupport.assertMpiError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * How derived datatypes are flattened: size, bounds and extent in buffer elements (mpiJava units),
 * LB/UB markers, nesting, and the merged runs their values travel in.
 */
class DerivedDatatypeLayoutTest {
    /** The runs of one item, as {offset, length} pairs in travel order. */
    private static int[][] runs(Datatype type) {
        int[][] runs = new int[type.map.runCount()][];
        for (int r = 0; r < runs.length; r++) {
            runs[r] = type.map.run(r);
        }
        return runs;
    }

    private static void assertShape(Datatype type, int size, int lb, int ub) {
        assertEquals(size, type.Size(), type + " size");
        assertEquals(lb, type.Lb(), type + " lb");
        assertEquals(ub, type.Ub(), type + " ub");
        assertEquals(ub - lb, type.Extent(), type + " extent");
    }

    @Test
    void contiguousOfDoublesIsOneRunOfCountElements() {
        Datatype type = Datatype.Contiguous(3, MPI.DOUBLE);

        assertShape(type, 3, 0, 3);
        assertArrayEquals(new int[][] {{0, 3}}, runs(type));
    }

    @Test
    void contiguousOfAPairTypeCountsElementsNotPairs() {
        assertShape(Datatype.Contiguous(2, MPI.INT2), 4, 0, 4);
    }

    @Test
    void vectorPlacesBlocksStrideExtentsApartAndEndsAtTheLastBlock() {
        Datatype type = Datatype.Vector(3, 2, 5, MPI.INT);

        assertShape(type, 6, 0, 12);
        assertArrayEquals(new int[][] {{0, 2}, {5, 2}, {10, 2}}, runs(type));
    }

    @Test
    void vectorStrideIsInExtentsOfTheOldType() {
        Datatype type = Datatype.Vector(2, 1, 3, MPI.INT2);

        assertShape(type, 4, 0, 8);
        assertArrayEquals(new int[][] {{0, 2}, {6, 2}}, runs(type));
    }

    @Test
    void hvectorStrideIsInBaseElements() {
        Datatype type = Datatype.Hvector(2, 1, 3, MPI.INT2);

        assertShape(type, 4, 0, 5);
        assertArrayEquals(new int[][] {{0, 2}, {3, 2}}, runs(type));
    }

    @Test
    void blocksThatTouchAreMergedIntoOneRun() {
        Datatype type = Datatype.Vector(4, 2, 2, MPI.INT);

        assertShape(type, 8, 0, 8);
        assertArrayEquals(new int[][] {{0, 8}}, runs(type));
    }

    @Test
    void indexedKeepsTheGivenOrderOfBlocks() {
        Datatype type = Datatype.Indexed(new int[] {2, 1}, new int[] {4, 0}, MPI.INT);

        assertShape(type, 3, 0, 6);
        assertArrayEquals(new int[][] {{4, 2}, {0, 1}}, runs(type));
    }

    @Test
    void indexedDisplacementsAreInExtentsOfTheOldTypeAndSetTheLowerBound() {
        Datatype type = Datatype.Indexed(new int[] {1}, new int[] {2}, MPI.INT2);

        assertShape(type, 2, 4, 6);
        assertArrayEquals(new int[][] {{4, 2}}, runs(type));
    }

    @Test
    void hindexedDisplacementsAreInBaseElements() {
        Datatype type = Datatype.Hindexed(new int[] {1}, new int[] {3}, MPI.INT2);

        assertShape(type, 2, 3, 5);
        assertArrayEquals(new int[][] {{3, 2}}, runs(type));
    }

    @Test
    void negativeStrideLaysBlocksDownwardsAndLowersTheBound() {
        Datatype type = Datatype.Vector(3, 1, -2, MPI.INT);

        assertShape(type, 3, -4, 1);
        assertArrayEquals(new int[][] {{0, 1}, {-2, 1}, {-4, 1}}, runs(type));
    }

    @Test
    void structMarkersSetTheBoundsWhateverTheData() {
        Datatype type = Datatype.Struct(new int[] {1, 2, 1}, new int[] {-1, 0, 5},
                new Datatype[] {MPI.LB, MPI.INT, MPI.UB});

        assertShape(type, 2, -1, 5);
        assertArrayEquals(new int[][] {{0, 2}}, runs(type));
    }

    @Test
    void markersAreInheritedByTypesBuiltUponThem() {
        Datatype padded = Datatype.Struct(new int[] {1, 2, 1}, new int[] {-1, 0, 5},
                new Datatype[] {MPI.LB, MPI.INT, MPI.UB});

        Datatype type = Datatype.Contiguous(2, padded);

        assertShape(type, 4, -1, 11);
        assertArrayEquals(new int[][] {{0, 2}, {6, 2}}, runs(type));
    }

    @Test
    void anUpperBoundMarkerAloneKeepsTheDataLowerBound() {
        Datatype type = Datatype.Struct(new int[] {1, 1}, new int[] {2, 10}, new Datatype[] {MPI.INT, MPI.UB});

        assertShape(type, 1, 2, 10);
    }

    @Test
    void structOfOneBaseTypeMixesBlocksOfDifferentTypes() {
        Datatype type = Datatype.Struct(new int[] {1, 2}, new int[] {0, 3},
                new Datatype[] {MPI.DOUBLE2, MPI.DOUBLE});

        assertShape(type, 4, 0, 5);
        assertArrayEquals(new int[][] {{0, 2}, {3, 2}}, runs(type));
    }

    @Test
    void nestedVectorsFlattenToTheProductOfTheirBlocks() {
        Datatype inner = Datatype.Vector(2, 1, 2, MPI.DOUBLE);

        Datatype type = Datatype.Vector(2, 1, 3, inner);

        assertShape(inner, 2, 0, 3);
        assertShape(type, 4, 0, 12);
        assertArrayEquals(new int[][] {{0, 1}, {2, 1}, {9, 1}, {11, 1}}, runs(type));
    }

    @Test
    void aContiguousTypeOfAVectorLaysTheVectorsExtentApart() {
        Datatype type = Datatype.Contiguous(2, Datatype.Vector(2, 1, 2, MPI.INT));

        assertShape(type, 4, 0, 6);
        assertArrayEquals(new int[][] {{0, 1}, {2, 2}, {5, 1}}, runs(type), "the runs of neighbouring items merge");
    }

    @Test
    void anEmptyTypeHasNoSizeAndNoExtent() {
        assertShape(Datatype.Contiguous(0, MPI.INT), 0, 0, 0);
        assertShape(Datatype.Indexed(new int[] {0, 0}, new int[] {3, 7}, MPI.INT), 0, 0, 0);
    }

    @Test
    void structMixingPrimitivesIsATypeError() {
        MPIException e = assertMpiError(MPI.ERR_TYPE, () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1},
                new Datatype[] {MPI.INT, MPI.DOUBLE}));

        assertMentions(e, "MPI.DOUBLE");
    }

    @Test
    void structMixingObjectsAndPrimitivesIsATypeError() {
        MPIException e = assertMpiError(MPI.ERR_TYPE, () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1},
                new Datatype[] {MPI.OBJECT, MPI.INT}));
        assertMpiError(MPI.ERR_TYPE, () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1},
                new Datatype[] {MPI.DOUBLE, Datatype.Contiguous(2, MPI.OBJECT)}));

        assertMentions(e, "mix objects and primitives");
    }

    @Test
    void objectTypesCountSlotsOfTheObjectArray() {
        Datatype vector = Datatype.Vector(3, 2, 4, MPI.OBJECT);
        Datatype struct = Datatype.Struct(new int[] {1, 1, 1}, new int[] {5, 0, 12},
                new Datatype[] {MPI.OBJECT, vector, MPI.UB});

        assertShape(vector, 6, 0, 10);
        assertShape(struct, 7, 0, 12);
    }

    @Test
    void markersAndNullTypesCannotBeBuiltUpon() {
        assertMpiError(MPI.ERR_TYPE, () -> Datatype.Contiguous(1, MPI.LB));
        assertMpiError(MPI.ERR_TYPE, () -> Datatype.Vector(1, 1, 1, MPI.NULL));
        assertMpiError(MPI.ERR_TYPE, () -> Datatype.Indexed(new int[] {1}, new int[] {0}, null));
        assertMpiError(MPI.ERR_TYPE, () -> Datatype.Struct(new int[] {1}, new int[] {0}, new Datatype[] {null}));
    }

    @Test
    void negativeCountsAndBlocklengthsAreRejected() {
        assertMpiError(MPI.ERR_COUNT, () -> Datatype.Contiguous(-1, MPI.INT));
        assertMpiError(MPI.ERR_COUNT, () -> Datatype.Vector(-1, 1, 1, MPI.INT));
        assertMpiError(MPI.ERR_ARG, () -> Datatype.Hvector(1, -1, 1, MPI.INT));
        assertMpiError(MPI.ERR_ARG, () -> Datatype.Indexed(new int[] {-1}, new int[] {0}, MPI.INT));
    }

    @Test
    void blockArraysOfDifferentLengthsAreRejected() {
        assertMpiError(MPI.ERR_ARG, () -> Datatype.Hindexed(new int[] {1, 1}, new int[] {0}, MPI.INT));
        assertMpiError(MPI.ERR_ARG, () -> Datatype.Struct(new int[] {1}, new int[] {0}, new Datatype[0]));
        assertMpiError(MPI.ERR_ARG, () -> Datatype.Indexed(null, new int[] {0}, MPI.INT));
    }

    @Test
    void anUpperBoundBelowTheLowerBoundIsATypeError() {
        assertMpiError(MPI.ERR_TYPE, () -> Datatype.Struct(new int[] {1, 1}, new int[] {4, 2},
                new Datatype[] {MPI.LB, MPI.UB}));
    }

    @Test
    void displacementsBeyondTheIntRangeOfIndicesAreRejected() {
        MPIException e = assertMpiError(MPI.ERR_ARG,
                () -> Datatype.Hvector(2, 1, Integer.MAX_VALUE, Datatype.Contiguous(2, MPI.INT)));

        assertMentions(e, "too large");
    }

    @Test
    void aFreedTypeCannotBeBuiltUponNorCommitted() {
        Datatype type = Datatype.Contiguous(2, MPI.INT);
        Datatype built = Datatype.Contiguous(2, type);

        type.free();

        assertMpiError(MPI.ERR_TYPE, () -> Datatype.Contiguous(2, type));
        assertMpiError(MPI.ERR_TYPE, type::Commit);
        assertShape(built, 4, 0, 4);
    }

    @Test
    void freeingAPredefinedTypeIsAnArgumentErrorAndLeavesItUsable() {
        for (Datatype predefined : new Datatype[] {MPI.INT, MPI.DOUBLE2, MPI.DOUBLE_INT, MPI.PACKED, MPI.OBJECT,
                MPI.LB, MPI.NULL}) {
            assertMpiError(MPI.ERR_ARG, predefined::free);
        }

        assertShape(Datatype.Contiguous(1, MPI.INT), 1, 0, 1);
    }

    private static void assertMentions(MPIException e, String text) {
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains(text), e.getMessage());
    }
}
