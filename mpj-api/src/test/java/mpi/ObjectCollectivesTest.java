package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Collectives over {@link MPI#OBJECT} on one member (the objects go through serialisation and the backend's byte
 * collectives and come back), their argument errors, and the object filter messages are deserialised under.
 * Several members are covered across processes.
 */
class ObjectCollectivesTest extends MpiTestSupport {
    private final Intracomm world = MPI.COMM_WORLD;

    /** String concatenation, lower rank first: associative, not commutative. */
    static final Op CONCAT = new Op(new User_function() {
        @Override
        public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            Object[] in = (Object[]) invec;
            Object[] io = (Object[]) inoutvec;
            for (int i = 0; i < count; i++) {
                io[inoutoffset + i] = (String) in[inoffset + i] + io[inoutoffset + i];
            }
        }
    }, false);

    @AfterEach
    void clearSetting() {
        System.clearProperty(ObjectFilter.PROPERTY);
    }

    @Test
    void dataMovementCarriesTheObjects() {
        start(1, 0);
        List<Integer> list = new ArrayList<>(List.of(1, 2, 3));
        Object[] send = {"a", list, new int[] {7}};
        Object[] recv = new Object[5];
        world.Gather(send, 1, 2, MPI.OBJECT, recv, 1, 2, MPI.OBJECT, 0);
        assertEquals(list, recv[1]);
        assertArrayEquals(new int[] {7}, (int[]) recv[2]);
        Object[] v = new Object[4];
        world.Gatherv(send, 0, 1, MPI.OBJECT, v, 0, new int[] {1}, new int[] {3}, MPI.OBJECT, 0);
        assertEquals("a", v[3]);
        Object[] s = new Object[1];
        world.Scatter(send, 0, 1, MPI.OBJECT, s, 0, 1, MPI.OBJECT, 0);
        assertEquals("a", s[0]);
        String[] typed = new String[2];
        world.Allgather(new Object[] {"x", "y"}, 0, 2, MPI.OBJECT, typed, 0, 2, MPI.OBJECT);
        assertArrayEquals(new String[] {"x", "y"}, typed);
        Object[] a = new Object[3];
        world.Alltoallv(send, 0, new int[] {2}, new int[] {1}, MPI.OBJECT, a, 0, new int[] {2}, new int[] {1},
                MPI.OBJECT);
        assertEquals(list, a[1]);
        Object[] b = {"root"};
        world.Bcast(b, 0, 1, MPI.OBJECT, 0);
        assertEquals("root", b[0]);
        Object[] inPlace = {"p", "q"};
        world.Allgather(MPI.IN_PLACE, 0, 0, MPI.OBJECT, inPlace, 0, 2, MPI.OBJECT);
        assertArrayEquals(new Object[] {"p", "q"}, inPlace);
    }

    @Test
    void reductionsTakeUserOps() {
        start(1, 0);
        Object[] in = {"a", "b"};
        Object[] out = new Object[2];
        world.Allreduce(in, 0, out, 0, 2, MPI.OBJECT, CONCAT);
        assertArrayEquals(in, out);
        Object[] r = new Object[2];
        world.Reduce(in, 0, r, 0, 2, MPI.OBJECT, CONCAT, 0);
        assertArrayEquals(in, r);
        Object[] scan = new Object[2];
        world.Scan(in, 0, scan, 0, 2, MPI.OBJECT, CONCAT);
        assertArrayEquals(in, scan);
        Object[] ex = {"untouched", "untouched"};
        world.Exscan(in, 0, ex, 0, 2, MPI.OBJECT, CONCAT);
        assertArrayEquals(new Object[] {"untouched", "untouched"}, ex);
        Object[] rs = new Object[2];
        world.Reduce_scatter(in, 0, rs, 0, new int[] {2}, MPI.OBJECT, CONCAT);
        assertArrayEquals(in, rs);
    }

    @Test
    void predefinedOpsAndMixedTypesAreRefused() {
        start(1, 0);
        assertMpiError(MPI.ERR_OP, () -> world.Allreduce(new Object[1], 0, new Object[1], 0, 1, MPI.OBJECT, MPI.SUM));
        assertMpiError(MPI.ERR_TYPE, () -> world.Allgather(new Object[] {"a"}, 0, 1, MPI.OBJECT, new int[1], 0, 1,
                MPI.INT));
        assertMpiError(MPI.ERR_ARG, () -> world.Gatherv(new Object[1], 0, 1, MPI.OBJECT, new Object[1], 0, null,
                new int[] {0}, MPI.OBJECT, 0));
        assertTrue(backend.collectives.isEmpty());
    }

    @Test
    void aGadgetClassIsRefusedByDefaultNamingIt() throws Exception {
        start(1, 0);
        Object[] send = {List.of(new ObjectName("a:b=c"))};
        MPIException e = assertMpiError(MPI.ERR_OTHER, () -> world.Allgather(send, 0, 1, MPI.OBJECT, new Object[1], 0,
                1, MPI.OBJECT));
        assertTrue(e.getMessage().contains("javax.management.ObjectName"), e.getMessage());
    }

    @Test
    void theSettingWidensAndNarrowsTheFilter() throws Exception {
        start(1, 0);
        System.setProperty(ObjectFilter.PROPERTY, "javax.management.ObjectName");
        Object[] got = new Object[1];
        world.Allgather(new Object[] {new ObjectName("a:b=c")}, 0, 1, MPI.OBJECT, got, 0, 1, MPI.OBJECT);
        assertEquals(new ObjectName("a:b=c"), got[0]);
        System.setProperty(ObjectFilter.PROPERTY, "!java.util.ArrayList");
        MPIException e = assertMpiError(MPI.ERR_OTHER, () -> world.Allgather(new Object[] {new ArrayList<>()}, 0, 1,
                MPI.OBJECT, new Object[1], 0, 1, MPI.OBJECT));
        assertTrue(e.getMessage().contains("java.util.ArrayList"), e.getMessage());
        System.setProperty(ObjectFilter.PROPERTY, "maxdepth=2");
        assertMpiError(MPI.ERR_OTHER, () -> world.Allgather(new Object[] {List.of(List.of(List.of(1)))}, 0, 1,
                MPI.OBJECT, new Object[1], 0, 1, MPI.OBJECT));
    }
}
