package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** New communicators, their contexts, Free and Compare, in a job of one process. */
class CommunicatorManagementTest extends MpiTestSupport {
    @BeforeEach
    void startAlone() {
        start(1, 0);
    }

    private static Intracomm dup(Intracomm comm) {
        return (Intracomm) comm.clone();
    }

    @Test
    void aDuplicateTakesTheLowestFreeContextPair() {
        Intracomm copy = dup(MPI.COMM_WORLD);

        assertEquals(4, copy.spec().pointToPointContext());
        assertEquals(5, copy.spec().collectiveContext());
        assertEquals(6, dup(copy).spec().pointToPointContext());
    }

    @Test
    void messagesOnADuplicateAreNotSeenByTheOriginal() {
        Intracomm copy = dup(MPI.COMM_WORLD);
        copy.Send(new int[] {1}, 0, 1, MPI.INT, 0, 7);

        assertNull(MPI.COMM_WORLD.Iprobe(0, 7));
        MPI.COMM_WORLD.Send(new int[] {2}, 0, 1, MPI.INT, 0, 7);
        int[] got = new int[1];
        MPI.COMM_WORLD.Recv(got, 0, 1, MPI.INT, MPI.ANY_SOURCE, 7);
        assertEquals(2, got[0]);
        copy.Recv(got, 0, 1, MPI.INT, MPI.ANY_SOURCE, 7);
        assertEquals(1, got[0]);
    }

    @Test
    void aFreedPairIsGivenToTheNextCommunicator() {
        Intracomm first = dup(MPI.COMM_WORLD);
        Intracomm second = dup(MPI.COMM_WORLD);

        first.Free();

        assertEquals(4, dup(MPI.COMM_WORLD).spec().pointToPointContext());
        assertEquals(6, second.spec().pointToPointContext());
    }

    @Test
    void aFreedCommunicatorCannotBeUsed() {
        Intracomm copy = dup(MPI.COMM_WORLD);
        copy.Free();

        assertMpiError(MPI.ERR_COMM, copy::Size);
        assertMpiError(MPI.ERR_COMM, () -> copy.Send(new int[1], 0, 1, MPI.INT, 0, 0));
        assertMpiError(MPI.ERR_COMM, () -> copy.Irecv(new int[1], 0, 1, MPI.INT, 0, 0));
        assertMpiError(MPI.ERR_COMM, copy::Barrier);
        assertMpiError(MPI.ERR_COMM, copy::Free);
    }

    @Test
    void thePredefinedCommunicatorsCannotBeFreed() {
        assertMpiError(MPI.ERR_ARG, MPI.COMM_WORLD::Free);
        assertMpiError(MPI.ERR_ARG, MPI.COMM_SELF::Free);
        assertEquals(0, MPI.COMM_SELF.Rank());
    }

    @Test
    void runningOutOfContextIdsIsReportedAndFreeingRecovers() {
        Intracomm last = null;
        for (int i = 2; i < ContextIds.PAIRS; i++) {
            last = dup(MPI.COMM_WORLD);
        }

        MPIException e = assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.clone());
        assertEquals(true, e.getMessage().contains("Free"), e.getMessage());
        last.Free();
        assertNotNull(MPI.COMM_WORLD.clone());
    }

    @Test
    void compareTellsTheSameCommunicatorFromACopy() {
        Intracomm copy = dup(MPI.COMM_WORLD);

        assertEquals(MPI.IDENT, Comm.Compare(MPI.COMM_WORLD, MPI.COMM_WORLD));
        assertEquals(MPI.CONGRUENT, Comm.Compare(MPI.COMM_WORLD, copy));
        assertMpiError(MPI.ERR_COMM, () -> Comm.Compare(MPI.COMM_WORLD, null));
    }

    @Test
    void theGroupOfACommunicatorHoldsItsMembers() {
        Group world = MPI.COMM_WORLD.Group();

        assertEquals(1, world.Size());
        assertEquals(0, world.Rank());
        assertEquals(MPI.IDENT, Group.Compare(world, MPI.COMM_SELF.Group()));
    }

    @Test
    void splitWithUndefinedColourGivesTheNullCommunicator() {
        assertNull(MPI.COMM_WORLD.Split(MPI.UNDEFINED, 0));
        assertNull(MPI.COMM_NULL);
    }

    @Test
    void splitGivesACommunicatorOfTheSameColour() {
        Intracomm mine = MPI.COMM_WORLD.Split(3, -5);

        assertEquals(1, mine.Size());
        assertEquals(0, mine.Rank());
        assertEquals(MPI.CONGRUENT, Comm.Compare(mine, MPI.COMM_WORLD));
    }

    @Test
    void aNegativeColourIsAnArgumentError() {
        assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Split(-1, 0));
    }

    @Test
    void createGivesNullOutsideTheGroupAndACommunicatorInside() {
        assertNull(MPI.COMM_WORLD.Create(MPI.GROUP_EMPTY));
        Intracomm all = MPI.COMM_WORLD.Create(MPI.COMM_WORLD.Group());

        assertEquals(1, all.Size());
        assertEquals(MPI.CONGRUENT, Comm.Compare(all, MPI.COMM_WORLD));
    }

    @Test
    void createRejectsAGroupWithProcessesOutsideTheCommunicator() {
        assertMpiError(MPI.ERR_GROUP, () -> MPI.COMM_WORLD.Create(new Group(new int[] {0, 5}, 0)));
        assertMpiError(MPI.ERR_GROUP, () -> MPI.COMM_WORLD.Create(null));
    }

    @Test
    void onlyTopologyCommunicatorsReportATopology() {
        assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.Topo_test());
        assertEquals(MPI.CART, MPI.COMM_WORLD.Create_cart(new int[] {1}, new boolean[1], false).Topo_test());
        assertEquals(MPI.GRAPH, MPI.COMM_WORLD.Create_graph(new int[] {0}, new int[0], false).Topo_test());
    }

    @Test
    void aCartesianCommunicatorKnowsItsGridAndItsPlace() {
        Cartcomm cart = MPI.COMM_WORLD.Create_cart(new int[] {1, 1}, new boolean[] {true, false}, true);

        CartParms parms = cart.Get();
        assertArrayEquals(new int[] {1, 1}, parms.dims);
        assertArrayEquals(new boolean[] {true, false}, parms.periods);
        assertArrayEquals(new int[] {0, 0}, parms.coords);
        ShiftParms periodic = cart.Shift(0, 1);
        assertEquals(0, periodic.rank_source);
        assertEquals(0, periodic.rank_dest);
        ShiftParms edge = cart.Shift(1, 1);
        assertEquals(MPI.PROC_NULL, edge.rank_source);
        assertEquals(MPI.PROC_NULL, edge.rank_dest);
        assertEquals(0, cart.Rank(new int[] {5, 0}));
        assertArrayEquals(new int[] {0, 0}, cart.Coords(0));
    }

    @Test
    void aDuplicateOfACartesianCommunicatorKeepsTheGrid() {
        Cartcomm cart = MPI.COMM_WORLD.Create_cart(new int[] {1, 1, 1}, new boolean[3], false);

        Cartcomm copy = assertInstanceOf(Cartcomm.class, cart.clone());

        assertArrayEquals(new int[] {1, 1, 1}, copy.Get().dims);
        assertEquals(MPI.CONGRUENT, Comm.Compare(cart, copy));
    }

    @Test
    void subKeepsTheChosenDimensions() {
        Cartcomm cart = MPI.COMM_WORLD.Create_cart(new int[] {1, 1, 1}, new boolean[] {false, true, false}, false);

        Cartcomm line = cart.Sub(new boolean[] {false, true, false});

        assertArrayEquals(new int[] {1}, line.Get().dims);
        assertArrayEquals(new boolean[] {true}, line.Get().periods);
        assertEquals(0, cart.Sub(new boolean[3]).Get().dims.length);
    }

    @Test
    void cartesianArgumentErrors() {
        Cartcomm cart = MPI.COMM_WORLD.Create_cart(new int[] {1, 1}, new boolean[2], false);

        assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_cart(new int[] {2}, new boolean[1], false));
        assertMpiError(MPI.ERR_DIMS, () -> MPI.COMM_WORLD.Create_cart(new int[] {0}, new boolean[1], false));
        assertMpiError(MPI.ERR_ARG, () -> cart.Shift(2, 1));
        assertMpiError(MPI.ERR_RANK, () -> cart.Coords(1));
        assertMpiError(MPI.ERR_ARG, () -> cart.Rank(new int[] {0, 1}));
        assertMpiError(MPI.ERR_ARG, () -> cart.Sub(new boolean[1]));
        assertMpiError(MPI.ERR_DIMS, () -> cart.Map(new int[] {2}, new boolean[1]));
        assertMpiError(MPI.ERR_TOPOLOGY, () -> cart.Sub(new boolean[2]).Shift(0, 1));
    }

    @Test
    void mapGivesTheRankInsideTheGrid() {
        Cartcomm cart = MPI.COMM_WORLD.Create_cart(new int[] {1}, new boolean[1], false);

        assertEquals(0, cart.Map(new int[] {1, 1}, new boolean[2]));
    }

    @Test
    void aGraphCommunicatorKnowsItsNeighbours() {
        Graphcomm graph = MPI.COMM_WORLD.Create_graph(new int[] {2}, new int[] {0, 0, 0}, false);

        assertArrayEquals(new int[] {0, 0}, graph.Neighbours(0));
        GraphParms parms = graph.Get();
        assertArrayEquals(new int[] {2}, parms.index);
        assertArrayEquals(new int[] {0, 0}, parms.edges, "edges past the last node's are dropped");
        assertEquals(0, graph.Map(new int[] {1}, new int[] {0}));
        assertMpiError(MPI.ERR_RANK, () -> graph.Neighbours(1));
    }

    @Test
    void graphArgumentErrors() {
        assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_graph(new int[] {1, 2}, new int[] {1, 0}, false));
        assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_graph(new int[] {1}, new int[] {1}, false));
        assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_graph(new int[] {2}, new int[] {0}, false));
        assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_graph(new int[] {-1}, new int[0], false));
        assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Create_graph(null, new int[0], false));
    }

    @Test
    void communicatorsCannotBeMadeBeforeInit() {
        Environment.resetForTests();

        assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.Split(0, 0));
        assertMpiError(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.clone());
        assertMpiError(MPI.ERR_OTHER, MPI.COMM_WORLD::Group);
    }

    @Test
    void dupIsCloneUnderMpisNameKeepingKindAndTopology() {
        Intracomm copy = MPI.COMM_WORLD.Dup();
        Comm asComm = copy;
        Cartcomm grid = MPI.COMM_WORLD.Create_cart(new int[] {1}, new boolean[] {true}, false);

        assertEquals(4, copy.spec().pointToPointContext());
        assertEquals(MPI.CONGRUENT, Comm.Compare(MPI.COMM_WORLD, copy));
        assertInstanceOf(Intracomm.class, asComm.Dup());
        Cartcomm gridCopy = grid.Dup();
        assertEquals(MPI.CART, gridCopy.Topo_test());
        assertArrayEquals(new int[] {1}, gridCopy.Get().dims);
        Graphcomm graph = MPI.COMM_WORLD.Create_graph(new int[] {0}, new int[0], false);
        assertEquals(MPI.GRAPH, graph.Dup().Topo_test());
    }

    @Test
    void dupOfAFreedCommunicatorIsErrComm() {
        Intracomm copy = MPI.COMM_WORLD.Dup();
        copy.Free();

        assertMpiError(MPI.ERR_COMM, copy::Dup);
    }

    @Test
    void commSelfIsAnIntracommWithItsCollectives() {
        Intracomm self = MPI.COMM_SELF;
        int[] sum = new int[1];

        self.Allreduce(new int[] {6}, 0, sum, 0, 1, MPI.INT, MPI.SUM);

        assertEquals(6, sum[0]);
        assertEquals(1, self.Dup().Size());
    }

    @Test
    void attrGetGivesThePredefinedAttributesAsMpiJavaDoes() {
        assertEquals(MPI.TAG_UB, MPI.COMM_WORLD.Attr_get(MPI.TAG_UB));
        assertEquals(MPI.PROC_NULL, MPI.COMM_WORLD.Attr_get(MPI.HOST));
        assertEquals(MPI.ANY_SOURCE, MPI.COMM_SELF.Attr_get(MPI.IO));
        assertEquals(0, MPI.COMM_WORLD.Dup().Attr_get(MPI.WTIME_IS_GLOBAL));
    }

    @Test
    void attrGetOfAnUnknownKeyOrAFreedCommunicatorIsAnError() {
        Intracomm copy = MPI.COMM_WORLD.Dup();
        copy.Free();

        assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Attr_get(42));
        assertMpiError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.Attr_get(-1));
        assertMpiError(MPI.ERR_COMM, () -> copy.Attr_get(MPI.TAG_UB));
    }
}
