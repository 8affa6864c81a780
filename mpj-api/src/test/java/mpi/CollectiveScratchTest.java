package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/**
 * The blocking collectives pack arrays other than {@code byte[]}, and receive their results, in the thread's
 * {@link CollectiveScratch}, reused call after call; the non-blocking ones keep buffers of their own until they
 * complete.
 */
class CollectiveScratchTest extends MpiTestSupport {
    private final Intracomm world = MPI.COMM_WORLD;

    @Test
    void blockingCallsOfEveryLengthAndTypeEachReturnTheirOwnValues() {
        start(1, 0);
        double[] longResult = new double[1000];
        world.Allreduce(ramp(1000, 0.5), 0, longResult, 0, 1000, MPI.DOUBLE, MPI.SUM);
        assertArrayEquals(ramp(1000, 0.5), longResult);
        int[] shortResult = new int[3];
        world.Allreduce(new int[] {7, 8, 9}, 0, shortResult, 0, 3, MPI.INT, MPI.MAX);
        assertArrayEquals(new int[] {7, 8, 9}, shortResult, "a shorter call after a longer one");
        long[] inPlace = {4, 5, 6, 7};
        world.Allreduce(MPI.IN_PLACE, 0, inPlace, 1, 2, MPI.LONG, MPI.SUM);
        assertArrayEquals(new long[] {4, 5, 6, 7}, inPlace);
        float[] gathered = new float[2];
        world.Allgather(new float[] {2.5f, 9f}, 1, 1, MPI.FLOAT, gathered, 1, 1, MPI.FLOAT);
        assertArrayEquals(new float[] {0f, 9f}, gathered);
        short[] exchanged = new short[2];
        world.Alltoall(new short[] {3, 1}, 0, 2, MPI.SHORT, exchanged, 0, 2, MPI.SHORT);
        assertArrayEquals(new short[] {3, 1}, exchanged);
        char[] broadcast = {'m', 'p', 'j'};
        world.Bcast(broadcast, 0, 3, MPI.CHAR, 0);
        assertArrayEquals(new char[] {'m', 'p', 'j'}, broadcast);
        double[] reduced = new double[1000];
        world.Reduce(ramp(1000, 2), 0, reduced, 0, 1000, MPI.DOUBLE, MPI.SUM, 0);
        assertArrayEquals(ramp(1000, 2), reduced, "a longer call after shorter ones");
    }

    @Test
    void aNonBlockingReductionKeepsItsResultThroughBlockingCallsBeforeItsWait() {
        start(1, 0);
        double[] pending = new double[64];
        Request request = world.Iallreduce(ramp(64, 1), 0, pending, 0, 64, MPI.DOUBLE, MPI.SUM);
        double[] between = new double[64];
        world.Allreduce(ramp(64, -3), 0, between, 0, 64, MPI.DOUBLE, MPI.SUM);
        world.Reduce(ramp(64, 7), 0, between, 0, 64, MPI.DOUBLE, MPI.SUM, 0);
        request.Wait();
        assertArrayEquals(ramp(64, 1), pending);
        assertArrayEquals(ramp(64, 7), between);
    }

    private static double[] ramp(int n, double step) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = i * step;
        }
        return values;
    }
}
