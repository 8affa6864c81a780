package dev.mpj.it;

import mpi.Datatype;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Halo exchange of 3D array faces with derived datatypes, periodic over a ring of ranks. Each rank
 * holds {@code double[(n+2)^3]} (k fastest) whose element {@code idx} is {@code rank * 1e7 + idx},
 * so every value names its owner and place. For each face type (x, y and z faces, built with
 * Vector, Hvector, Contiguous and Indexed) the top interior plane goes to the right neighbour's
 * bottom ghost plane and the bottom interior plane to the left neighbour's top ghost plane, straight
 * from and into the array; then a face is received as plain doubles and compared with a manual
 * copy. Args: comma-separated interior sizes (default "5,96": eager and rendezvous messages).
 */
public final class FaceExchangeProgram {
    private FaceExchangeProgram() {
    }

    /** A face type normal to {@code axis} (0 = i, 1 = j, 2 = k) and the offset of its plane's face. */
    private record Face(String name, int axis, Datatype type, int n) {
        int offsetOf(int plane) {
            return axis == 0 ? at(n, plane, 1, 1) : axis == 1 ? at(n, 1, plane, 1) : at(n, 1, 1, plane);
        }
    }

    public static void main(String[] args) {
        MPI.Init(args);
        String sizes = args.length > 0 ? args[0] : "5,96";
        for (String n : sizes.split(",")) {
            for (Face face : faces(Integer.parseInt(n.trim()))) {
                haloExchange(face);
                receiveAsPlainDoubles(face);
            }
        }
        Check.done("faces");
        MPI.Finalize();
    }

    private static int at(int n, int i, int j, int k) {
        int m = n + 2;
        return (i * m + j) * m + k;
    }

    private static Face[] faces(int n) {
        int m = n + 2;
        int[] ones = new int[n * n];
        int[] displacements = new int[n * n];
        for (int p = 0; p < n * n; p++) {
            ones[p] = 1;
            displacements[p] = p / n * m * m + p % n * m;
        }
        Face[] faces = {
            new Face("x by Vector", 0, Datatype.Vector(n, n, m, MPI.DOUBLE), n),
            new Face("x by Hvector of Contiguous", 0, Datatype.Hvector(n, 1, m, Datatype.Contiguous(n, MPI.DOUBLE)), n),
            new Face("y by Hvector", 1, Datatype.Hvector(n, n, m * m, MPI.DOUBLE), n),
            new Face("z by Hvector of Vector", 2, Datatype.Hvector(n, 1, m * m, Datatype.Vector(n, 1, m, MPI.DOUBLE)), n),
            new Face("z by Indexed", 2, Datatype.Indexed(ones, displacements, MPI.DOUBLE), n),
        };
        for (Face face : faces) {
            face.type().Commit();
        }
        return faces;
    }

    /** The interior of {@code plane} normal to the face's axis, in the order a manual copy visits it. */
    private static int[] manualFace(Face face, int plane) {
        int n = face.n();
        int[] indices = new int[n * n];
        int p = 0;
        for (int a = 1; a <= n; a++) {
            for (int b = 1; b <= n; b++) {
                indices[p++] = face.axis() == 0 ? at(n, plane, a, b)
                        : face.axis() == 1 ? at(n, a, plane, b) : at(n, a, b, plane);
            }
        }
        return indices;
    }

    private static double value(int rank, int index) {
        return rank * 1e7 + index;
    }

    private static double[] fieldOf(int rank, int n) {
        int m = n + 2;
        double[] field = new double[m * m * m];
        for (int i = 0; i < field.length; i++) {
            field[i] = value(rank, i);
        }
        return field;
    }

    private static void haloExchange(Face face) {
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int left = (rank + size - 1) % size;
        int right = (rank + 1) % size;
        int n = face.n();
        double[] field = fieldOf(rank, n);
        Datatype type = face.type();

        Request[] requests = {
            MPI.COMM_WORLD.Irecv(field, face.offsetOf(0), 1, type, left, 1),
            MPI.COMM_WORLD.Irecv(field, face.offsetOf(n + 1), 1, type, right, 2),
            MPI.COMM_WORLD.Isend(field, face.offsetOf(n), 1, type, right, 1),
            MPI.COMM_WORLD.Isend(field, face.offsetOf(1), 1, type, left, 2),
        };
        Status[] statuses = Request.Waitall(requests);

        double[] expected = fieldOf(rank, n);
        int[] lowGhost = manualFace(face, 0);
        int[] highGhost = manualFace(face, n + 1);
        int[] leftsTop = manualFace(face, n);
        int[] rightsBottom = manualFace(face, 1);
        for (int p = 0; p < n * n; p++) {
            expected[lowGhost[p]] = value(left, leftsTop[p]);
            expected[highGhost[p]] = value(right, rightsBottom[p]);
        }
        for (int i = 0; i < field.length; i++) {
            Check.that(field[i] == expected[i], face.name() + " n=" + n + ": element " + i + " is " + field[i]
                    + ", expected " + expected[i]);
        }
        Check.equal(1, statuses[0].Get_count(type), face.name() + ": whole faces received");
        Check.equal((long) n * n, statuses[1].Get_elements(type), face.name() + ": elements received");
    }

    private static void receiveAsPlainDoubles(Face face) {
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int left = (rank + size - 1) % size;
        int right = (rank + 1) % size;
        int n = face.n();
        double[] field = fieldOf(rank, n);
        double[] flat = new double[n * n];

        Status status = MPI.COMM_WORLD.Sendrecv(field, face.offsetOf(n), 1, face.type(), right, 3,
                flat, 0, n * n, MPI.DOUBLE, left, 3);

        int[] leftsTop = manualFace(face, n);
        for (int p = 0; p < n * n; p++) {
            Check.that(flat[p] == value(left, leftsTop[p]), face.name() + " n=" + n + ": value " + p + " of the face is "
                    + flat[p] + ", the manual copy has " + value(left, leftsTop[p]));
        }
        Check.equal((long) n * n, status.Get_count(MPI.DOUBLE), face.name() + ": doubles received");
    }
}
