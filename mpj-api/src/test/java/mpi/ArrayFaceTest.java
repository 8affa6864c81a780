package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.IntUnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The faces of a 3D array with ghost layers, {@code double[(N+2)^3]} with k fastest, are sent and
 * received straight from the array with derived types, without a manual copy, and carry exactly
 * what a manual copy would.
 */
class ArrayFaceTest extends MpiTestSupport {
    private static final int N = 6;
    private static final int M = N + 2;

    @BeforeEach
    void startTwoRanks() {
        start(2, 0);
    }

    private static int at(int i, int j, int k) {
        return (i * M + j) * M + k;
    }

    /** A face type: the axis it is normal to, and where the face of a plane starts. */
    record Face(String name, int axis, Datatype type, IntUnaryOperator offsetOfPlane) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> faces() {
        int[] ones = new int[N * N];
        int[] displacements = new int[N * N];
        for (int n = 0; n < N * N; n++) {
            ones[n] = 1;
            displacements[n] = n / N * M * M + n % N * M;
        }
        return Stream.of(
                new Face("x by Vector", 0, Datatype.Vector(N, N, M, MPI.DOUBLE), p -> at(p, 1, 1)),
                new Face("x by Hvector of Contiguous rows", 0,
                        Datatype.Hvector(N, 1, M, Datatype.Contiguous(N, MPI.DOUBLE)), p -> at(p, 1, 1)),
                new Face("y by Hvector", 1, Datatype.Hvector(N, N, M * M, MPI.DOUBLE), p -> at(1, p, 1)),
                new Face("z by Hvector of Vector", 2,
                        Datatype.Hvector(N, 1, M * M, Datatype.Vector(N, 1, M, MPI.DOUBLE)), p -> at(1, 1, p)),
                new Face("z by Indexed", 2, Datatype.Indexed(ones, displacements, MPI.DOUBLE), p -> at(1, 1, p)))
                .peek(face -> face.type().Commit())
                .map(Arguments::of);
    }

    /** The interior of plane {@code plane} normal to {@code axis}, in the order a manual copy visits it. */
    private static int[] manualFace(int axis, int plane) {
        int[] indices = new int[N * N];
        int n = 0;
        for (int a = 1; a <= N; a++) {
            for (int b = 1; b <= N; b++) {
                indices[n++] = axis == 0 ? at(plane, a, b) : axis == 1 ? at(a, plane, b) : at(a, b, plane);
            }
        }
        return indices;
    }

    private static double[] numberedField() {
        double[] field = new double[M * M * M];
        for (int i = 0; i < field.length; i++) {
            field[i] = i + 0.25;
        }
        return field;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faces")
    void aFaceSentFromTheArrayCarriesTheManualCopy(Face face) {
        double[] field = numberedField();
        double[] manual = new double[N * N];
        int[] indices = manualFace(face.axis(), N);
        for (int n = 0; n < indices.length; n++) {
            manual[n] = field[indices[n]];
        }

        MPI.COMM_WORLD.Send(field, face.offsetOfPlane().applyAsInt(N), 1, face.type(), 1, 0);

        double[] wire = new double[N * N];
        ByteBuffer.wrap(backend.takeSent(1).data()).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(wire);
        assertArrayEquals(manual, wire);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faces")
    void aFaceReceivedIntoTheGhostPlaneLandsWhereAManualCopyPutsIt(Face face) {
        ByteBuffer incoming = ByteBuffer.allocate(N * N * 8).order(ByteOrder.LITTLE_ENDIAN);
        double[] expected = new double[M * M * M];
        int[] indices = manualFace(face.axis(), 0);
        for (int n = 0; n < indices.length; n++) {
            incoming.putDouble(n * 8, 1000 + n);
            expected[indices[n]] = 1000 + n;
        }
        double[] field = new double[M * M * M];

        backend.deliver(1, 0, WORLD, incoming.array());
        Status status = MPI.COMM_WORLD.Recv(field, face.offsetOfPlane().applyAsInt(0), 1, face.type(), 1, 0);

        assertArrayEquals(expected, field);
        assertEquals(1, status.Get_count(face.type()));
        assertEquals(N * N, status.Get_elements(face.type()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faces")
    void aHaloExchangeFillsBothGhostPlanesFromTheOppositeInteriorPlanes(Face face) {
        double[] field = numberedField();
        double[] expected = field.clone();
        int[] lowGhost = manualFace(face.axis(), 0);
        int[] highInterior = manualFace(face.axis(), N);
        int[] highGhost = manualFace(face.axis(), N + 1);
        int[] lowInterior = manualFace(face.axis(), 1);
        for (int n = 0; n < N * N; n++) {
            expected[lowGhost[n]] = field[highInterior[n]];
            expected[highGhost[n]] = field[lowInterior[n]];
        }
        IntUnaryOperator plane = face.offsetOfPlane();

        // periodic in one process: the top interior plane wraps to the bottom ghost plane and back
        MPI.COMM_WORLD.Sendrecv(field, plane.applyAsInt(N), 1, face.type(), 0, 1,
                field, plane.applyAsInt(0), 1, face.type(), 0, 1);
        MPI.COMM_WORLD.Sendrecv(field, plane.applyAsInt(1), 1, face.type(), 0, 2,
                field, plane.applyAsInt(N + 1), 1, face.type(), 0, 2);

        assertArrayEquals(expected, field);
    }
}
