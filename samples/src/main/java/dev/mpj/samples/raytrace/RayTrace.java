package dev.mpj.samples.raytrace;

import java.io.Serializable;

import dev.mpj.samples.JobExit;
import dev.mpj.samples.Lines;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;

/**
 * A parallel ray tracer in the master/worker style of mpiJava programs, over an inter-communicator: rank 0 (the
 * master group) and ranks 1..n-1 (the worker group) {@code Split} {@code COMM_WORLD} and join with
 * {@code Create_intercomm}. The master broadcasts the {@link Scene} to the workers as an {@code MPI.OBJECT} with the
 * intercommunicator's {@code Bcast}, hands out rows of the image as {@link RowTask} objects, one at a time to
 * whichever worker returns a {@link RowPixels} result first ({@code MPI.ANY_SOURCE}, ranks of the worker group),
 * and stops each worker when no row is left. Rank 0 then renders the image again alone and prints {@code VALID} if
 * both images have the same checksum and every row came back exactly once. With one rank there is no worker group:
 * rank 0 renders the rows itself. {@code ./mpjrun -np 4 raytrace [WIDTH HEIGHT]}
 */
public final class RayTrace {
    private static final int TAG_WORK = 1;
    private static final int TAG_RESULT = 2;
    private static final int TAG_STOP = 3;
    /** The leaders' tag on {@code COMM_WORLD} while the intercommunicator is made. */
    private static final int TAG_JOIN = 4;
    private static final int MASTER = 0;
    private static final int WORKERS = 1;

    /** A row for a worker to render. */
    record RowTask(int y) implements Serializable {
    }

    /** A rendered row, back to the master. */
    record RowPixels(int y, int[] pixels) implements Serializable {
    }

    private RayTrace() {
    }

    public static void main(String[] args) {
        String[] rest = MPI.Init(args);
        if (JobExit.helpAsked(rest)) {
            JobExit.usage("usage: raytrace [WIDTH HEIGHT]   (rows rendered by workers, rank 0 hands them out; "
                    + "default 64 48)");
        }
        int width = 64;
        int height = 48;
        try {
            if (rest.length > 0) {
                width = Integer.parseInt(rest[0]);
                height = rest.length > 1 ? Integer.parseInt(rest[1]) : height;
            }
            if (width < 1 || height < 1 || (long) width * height > 1 << 24) {
                throw new NumberFormatException(width + "x" + height + " is outside 1 to 2^24 pixels");
            }
        } catch (NumberFormatException e) {
            JobExit.refuse("raytrace", "WIDTH and HEIGHT must be positive integers (" + e.getMessage() + ")");
        }
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        if (size == 1) {
            report(new Scene(width, height), 1, MPI.Wtime(), null);
            MPI.Finalize();
            return;
        }
        Intracomm group = MPI.COMM_WORLD.Split(rank == 0 ? MASTER : WORKERS, rank);
        // the other group's leader, by its rank in COMM_WORLD: world rank 1 leads the workers
        Intercomm inter = MPI.COMM_WORLD.Create_intercomm(group, 0, rank == 0 ? 1 : 0, TAG_JOIN);
        Object[] sceneBuf = new Object[1];
        if (rank == 0) {
            Scene scene = new Scene(width, height);
            sceneBuf[0] = scene;
            inter.Bcast(sceneBuf, 0, 1, MPI.OBJECT, MPI.ROOT);
            double t0 = MPI.Wtime();
            report(scene, size, t0, master(inter, scene));
        } else {
            inter.Bcast(sceneBuf, 0, 1, MPI.OBJECT, 0);
            work(inter, (Scene) sceneBuf[0]);
        }
        inter.Free();
        group.Free();
        MPI.Finalize();
    }

    /** Prints the result line, checking {@code image} (null: render it here) against a render alone. */
    private static void report(Scene scene, int size, double t0, int[][] image) {
        int[][] rendered = image == null ? renderAlone(scene) : image;
        double parallel = MPI.Wtime() - t0;
        long checksum = checksum(rendered);
        boolean valid = checksum == checksum(renderAlone(scene));
        Lines.printf("raytrace %dx%d checksum=%016x %s (%d ranks, %.3f s)%n", scene.width(), scene.height(), checksum,
                valid ? "VALID" : "INVALID", size, parallel);
    }

    /** Hands out the rows and collects them; a row returned twice or never leaves its slot null. */
    private static int[][] master(Intercomm inter, Scene scene) {
        int[][] image = new int[scene.height()][];
        int next = 0;
        int outstanding = 0;
        for (int worker = 0; worker < inter.Remote_size(); worker++) {
            if (assign(inter, next, scene.height(), worker)) {
                next++;
                outstanding++;
            }
        }
        Object[] got = new Object[1];
        while (outstanding > 0) {
            Status status = inter.Recv(got, 0, 1, MPI.OBJECT, MPI.ANY_SOURCE, TAG_RESULT);
            RowPixels row = (RowPixels) got[0];
            image[row.y()] = image[row.y()] == null ? row.pixels() : null;
            outstanding--;
            if (assign(inter, next, scene.height(), status.source)) {
                next++;
                outstanding++;
            }
        }
        return image;
    }

    /**
     * Sends row {@code row} to {@code worker} (a rank of the worker group) and returns true, or tells it to stop when
     * no row is left.
     */
    private static boolean assign(Intercomm inter, int row, int height, int worker) {
        if (row < height) {
            inter.Send(new Object[] {new RowTask(row)}, 0, 1, MPI.OBJECT, worker, TAG_WORK);
            return true;
        }
        inter.Send(new Object[] {null}, 0, 1, MPI.OBJECT, worker, TAG_STOP);
        return false;
    }

    /** Renders the rows the master (rank 0 of the remote group) sends until it says stop. */
    private static void work(Intercomm inter, Scene scene) {
        Object[] task = new Object[1];
        while (true) {
            Status status = inter.Recv(task, 0, 1, MPI.OBJECT, 0, MPI.ANY_TAG);
            if (status.tag == TAG_STOP) {
                return;
            }
            int y = ((RowTask) task[0]).y();
            Object[] result = {new RowPixels(y, scene.renderRow(y))};
            inter.Send(result, 0, 1, MPI.OBJECT, 0, TAG_RESULT);
        }
    }

    private static int[][] renderAlone(Scene scene) {
        int[][] image = new int[scene.height()][];
        for (int y = 0; y < image.length; y++) {
            image[y] = scene.renderRow(y);
        }
        return image;
    }

    /** A polynomial hash of every pixel in row order; a missing row makes it differ. */
    private static long checksum(int[][] image) {
        long sum = 17;
        for (int[] row : image) {
            if (row == null) {
                return -1;
            }
            for (int pixel : row) {
                sum = sum * 1_000_003 + pixel;
            }
        }
        return sum;
    }
}
