package dev.mpj.launcher;

import dev.mpj.runtime.bootstrap.CardTableAllgather;
import dev.mpj.runtime.bootstrap.RootsAllgatherExchange;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.init.InitSequence;
import dev.mpj.runtime.pmi.SingletonPmiClient;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.util.Arrays;
import java.util.List;

/**
 * The rank program of the job that makes the {@link ClassDataArchive}: what a typical program does first, so
 * its classes are archived. Run as 3 ranks on 2 fake nodes, rank 0 reaches rank 1 through shared memory and rank
 * 2 through TCP; it checks what it receives, so a broken runtime fails the training instead of archiving it.
 */
public final class ArchiveTraining {
    /** Values of the training's reduced vectors: at least the reduction kernels' minimum ({@code ArrayKernels}). */
    private static final int VECTOR_VALUES = 256;
    /** Doubles of the training's faces, a column of them strided {@link #FACE_STRIDE} apart. */
    private static final int FACE_VALUES = 64;
    private static final int FACE_STRIDE = 3;
    /** Doubles of the training's large face: twice the default eager threshold, so it goes by rendezvous. */
    private static final int LARGE_FACE_VALUES =
            2 * Integer.parseInt(Setting.EAGER_THRESHOLD.defaultValue()) / Double.BYTES;

    private ArchiveTraining() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        connectFromRankZero(rank, size);
        int[] in = new int[size];
        int[] out = {rank};
        Request[] requests = new Request[2 * (size - 1)];
        int n = 0;
        for (int peer = 0; peer < size; peer++) {
            if (peer != rank) {
                requests[n++] = MPI.COMM_WORLD.Irecv(in, peer, 1, MPI.INT, peer, 1);
                requests[n++] = MPI.COMM_WORLD.Isend(out, 0, 1, MPI.INT, peer, 1);
            }
        }
        Request.Waitall(requests);
        int[] sum = new int[1];
        MPI.COMM_WORLD.Allreduce(out, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        MPI.COMM_WORLD.Bcast(out, 0, 1, MPI.INT, 0);
        // the collectives' classes too, so that a program's first collective does not load them from the jars
        int[] toEach = new int[size];
        for (int peer = 0; peer < size; peer++) {
            toEach[peer] = rank * size + peer;
        }
        int[] blocks = new int[size];
        MPI.COMM_WORLD.Alltoall(toEach, 0, 1, MPI.INT, blocks, 0, 1, MPI.INT);
        int[] ranks = new int[size];
        MPI.COMM_WORLD.Allgather(out, 0, 1, MPI.INT, ranks, 0, 1, MPI.INT);
        // vectors long enough for the bulk element copies and the reduction kernels, whose classes a program's
        // first reduction of an array of some length would otherwise load from the jars and verify
        int[] vector = new int[VECTOR_VALUES];
        Arrays.fill(vector, rank + 1);
        int[] vectorSum = new int[VECTOR_VALUES];
        MPI.COMM_WORLD.Allreduce(vector, 0, vectorSum, 0, VECTOR_VALUES, MPI.INT, MPI.SUM);
        int[] vectorAtRoot = new int[VECTOR_VALUES];
        MPI.COMM_WORLD.Reduce(vector, 0, vectorAtRoot, 0, VECTOR_VALUES, MPI.INT, MPI.SUM, 0);
        MPI.COMM_WORLD.Barrier();
        int expected = size * (size + 1) / 2;
        if (vectorSum[0] != expected || vectorSum[VECTOR_VALUES - 1] != expected
                || (rank == 0 && vectorAtRoot[VECTOR_VALUES - 1] != expected)) {
            throw new MPIException(MPIException.ERR_OTHER, "rank " + rank
                    + ": wrong vector allreduce or reduce result");
        }
        for (int peer = 0; peer < size; peer++) {
            if (peer != rank && in[peer] != peer) {
                throw new MPIException(MPIException.ERR_OTHER, "rank " + rank + " got " + in[peer] + " from " + peer);
            }
        }
        for (int peer = 0; peer < size; peer++) {
            if (blocks[peer] != peer * size + rank || ranks[peer] != 0) {
                throw new MPIException(MPIException.ERR_OTHER, "rank " + rank
                        + ": wrong alltoall or allgather result");
            }
        }
        if (sum[0] != size * (size - 1) / 2 || out[0] != 0) {
            throw new MPIException(MPIException.ERR_OTHER, "rank " + rank + ": wrong allreduce or bcast result");
        }
        exchangeFaces(rank, size);
        exchangeLargeFaces(rank, size);
        loadOneNodeExchange();
        loadJobOfOne();
        MPI.Finalize();
    }

    /**
     * Rank 0, whose JVM records the archive, sends to every peer before any peer sends to it, so that it opens its
     * TCP connection itself (the training runs on demand) and the connecting side's classes are archived. Were the
     * peer's connection admitted first, rank 0 would not dial, and which side's classes the archive held would
     * depend on which rank's send came first.
     */
    private static void connectFromRankZero(int rank, int size) {
        int[] token = {rank + 1};
        if (rank == 0) {
            for (int peer = 1; peer < size; peer++) {
                MPI.COMM_WORLD.Send(token, 0, 1, MPI.INT, peer, 0);
            }
        } else {
            MPI.COMM_WORLD.Recv(token, 0, 1, MPI.INT, 0, 0);
            if (token[0] != 1) {
                throw new MPIException(MPIException.ERR_OTHER, "rank " + rank + " got " + token[0] + " from rank 0");
            }
        }
    }

    /**
     * A halo exchange's first iteration: a dense run and a strided column of {@code double}s to every peer, sent
     * before the peer posts its receives (so they arrive unexpected), then received and checked. Archives the
     * double views the packing uses and the strided layouts' classes, which a program's first exchange of
     * {@code double[]} faces would otherwise load from the JDK's image and the jars inside its timed loop.
     */
    private static void exchangeFaces(int rank, int size) {
        Datatype column = Datatype.Vector(FACE_VALUES, 1, FACE_STRIDE, MPI.DOUBLE);
        column.Commit();
        double[] face = new double[FACE_VALUES * FACE_STRIDE];
        for (int i = 0; i < face.length; i++) {
            face[i] = rank + i / (double) face.length;
        }
        Request[] sends = new Request[2 * (size - 1)];
        int n = 0;
        for (int peer = 0; peer < size; peer++) {
            if (peer != rank) {
                sends[n++] = MPI.COMM_WORLD.Isend(face, 0, FACE_VALUES, MPI.DOUBLE, peer, 2);
                sends[n++] = MPI.COMM_WORLD.Isend(face, 0, 1, column, peer, 3);
            }
        }
        MPI.COMM_WORLD.Barrier();
        double[] dense = new double[FACE_VALUES];
        double[] strided = new double[FACE_VALUES * FACE_STRIDE];
        for (int peer = 0; peer < size; peer++) {
            if (peer == rank) {
                continue;
            }
            Request[] receives = {MPI.COMM_WORLD.Irecv(dense, 0, FACE_VALUES, MPI.DOUBLE, peer, 2),
                    MPI.COMM_WORLD.Irecv(strided, 0, 1, column, peer, 3)};
            Request.Waitall(receives);
            for (int i = 0; i < FACE_VALUES; i++) {
                double expected = peer + i / (double) face.length;
                double expectedColumn = peer + i * FACE_STRIDE / (double) face.length;
                if (dense[i] != expected || strided[i * FACE_STRIDE] != expectedColumn) {
                    throw new MPIException(MPIException.ERR_OTHER, "rank " + rank + ": wrong face from " + peer);
                }
            }
        }
        Request.Waitall(sends);
        column.free();
    }

    /**
     * A face above the eager threshold to and from every peer, rank 1 among them through shared memory: archives
     * what a rendezvous loads on first use (the shared-memory ring's copies of the frames it hands over rather than
     * takes in place), which a program's first exchange of large faces would otherwise read from the jars and
     * verify inside its timed loop.
     */
    private static void exchangeLargeFaces(int rank, int size) {
        double[] face = new double[LARGE_FACE_VALUES];
        Arrays.fill(face, rank + 0.5);
        double[][] received = new double[size][];
        Request[] requests = new Request[2 * (size - 1)];
        int n = 0;
        for (int peer = 0; peer < size; peer++) {
            if (peer != rank) {
                received[peer] = new double[LARGE_FACE_VALUES];
                requests[n++] = MPI.COMM_WORLD.Irecv(received[peer], 0, LARGE_FACE_VALUES, MPI.DOUBLE, peer, 4);
            }
        }
        for (int peer = 0; peer < size; peer++) {
            if (peer != rank) {
                requests[n++] = MPI.COMM_WORLD.Isend(face, 0, LARGE_FACE_VALUES, MPI.DOUBLE, peer, 4);
            }
        }
        Request.Waitall(requests);
        for (int peer = 0; peer < size; peer++) {
            if (peer != rank && (received[peer][0] != peer + 0.5
                    || received[peer][LARGE_FACE_VALUES - 1] != peer + 0.5)) {
                throw new MPIException(MPIException.ERR_OTHER, "rank " + rank + ": wrong large face from " + peer);
            }
        }
    }

    /**
     * The one-node address exchange's classes ({@code roots}), which this job on two nodes does not run: archived
     * too, since a job on one node is the common case and would otherwise load them from the jar inside
     * {@code MPI.Init}.
     */
    private static void loadOneNodeExchange() {
        load(RootsAllgatherExchange.class.getName(), CardTableAllgather.class.getName());
    }

    /**
     * The classes only a job of one runs (the singleton PMI client and the engine's router without peers), which
     * this job of three does not: archived too, so that {@code mpjrun -np 1}, which starts its rank straight from
     * the script, opens no runtime jar at all.
     */
    private static void loadJobOfOne() {
        load(JOB_OF_ONE_CLASSES.toArray(new String[0]));
    }

    /** The classes {@link #loadJobOfOne} loads: a test checks that each exists. */
    static final List<String> JOB_OF_ONE_CLASSES = List.of(SingletonPmiClient.class.getName(),
            SingletonPmiClient.class.getName() + "$UnfinalizedExit", InitSequence.class.getName() + "$NoPeers");

    private static void load(String... names) {
        for (String name : names) {
            try {
                Class.forName(name, true, ArchiveTraining.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
