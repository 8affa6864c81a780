package dev.mpj.it;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.IntStream;

import dev.mpj.runtime.MpjRuntime;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.User_function;

/**
 * Every collective (Exscan too, and MPI.OBJECT buffers with a non-commutative user Op), for several sizes (up to past the eager threshold), every root worth trying,
 * several datatypes and operations, MPI.IN_PLACE, and two argument errors; each rank checks its results
 * against values it computes itself. The algorithms are whatever the job's settings select.
 */
public final class CollectivesProgram {
    /**
     * Items per rank. 32 768 ints: at np 2 the alltoall's blocks are 64 KiB, the eager threshold, so the two
     * members' one exchange that copies the rank's own block while the other is in flight, and the allreduce's
     * halves too.
     */
    private static final int[] SIZES = {0, 1, 1000, 32_768, 70_000};
    private static Intracomm world;
    private static int rank;
    private static int size;

    private CollectivesProgram() {
    }

    /** The value rank r contributes at index i. */
    static int v(int r, int i) {
        return r * 1000 + i % 977;
    }

    static int[] ints(int r, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = v(r, i);
        }
        return a;
    }

    /** x → m·x + c maps as (m, c) INT2 pairs, composed lower rank first: associative, not commutative. */
    static final Op COMPOSE = new Op(new User_function() {
        @Override
        public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            int[] in = (int[]) invec;
            int[] io = (int[]) inoutvec;
            for (int k = 0; k < count; k++) {
                int a = inoffset + 2 * k;
                int b = inoutoffset + 2 * k;
                int m = io[b] * in[a];
                int c = io[b] * in[a + 1] + io[b + 1];
                io[b] = m;
                io[b + 1] = c;
            }
        }
    }, false);

    static int[] maps(int r, int n) {
        int[] a = new int[2 * n];
        for (int i = 0; i < n; i++) {
            a[2 * i] = 3 + 2 * ((r + i) % 5);
            a[2 * i + 1] = r - i % 7;
        }
        return a;
    }

    static int[] composed(int upTo, int n) {
        int[] acc = maps(0, n);
        for (int r = 1; r <= upTo; r++) {
            int[] next = maps(r, n);
            for (int i = 0; i < n; i++) {
                int m = next[2 * i] * acc[2 * i];
                int c = next[2 * i] * acc[2 * i + 1] + next[2 * i + 1];
                acc[2 * i] = m;
                acc[2 * i + 1] = c;
            }
        }
        return acc;
    }

    static int[] sums(int upTo, int n) {
        int[] s = new int[n];
        for (int r = 0; r <= upTo; r++) {
            for (int i = 0; i < n; i++) {
                s[i] += v(r, i);
            }
        }
        return s;
    }

    static void same(int[] expected, int[] actual, String what) {
        if (!Arrays.equals(expected, actual)) {
            int i = Arrays.mismatch(expected, actual);
            Check.that(false, what + ": first difference at " + i + " of " + expected.length);
        }
    }

    /**
     * Reductions of 1 MiB vectors through the array kernels: at two ranks each half outgrows a ring record and goes
     * through the bulk channel. The values make every combination exact, so any order gives the same bits.
     */
    static void longVectors() {
        int n = 1 << 18;
        float[] fs = new float[n];
        double[] dm = new double[n];
        long[] lp = new long[n];
        Arrays.fill(dm, Double.NEGATIVE_INFINITY);
        Arrays.fill(lp, 1);
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < n; i++) {
                fs[i] += v(r, i) % 1024;
                dm[i] = Math.max(dm[i], v(r, i) * 0.5);
                lp[i] *= v(r, i) % 7 + 1;
            }
        }
        float[] f = new float[n];
        double[] d = new double[n];
        long[] l = new long[n];
        float[] myF = new float[n];
        double[] myD = new double[n];
        long[] myL = new long[n];
        for (int i = 0; i < n; i++) {
            myF[i] = v(rank, i) % 1024;
            myD[i] = v(rank, i) * 0.5;
            myL[i] = v(rank, i) % 7 + 1;
        }
        world.Allreduce(myF, 0, f, 0, n, MPI.FLOAT, MPI.SUM);
        Check.that(Arrays.equals(fs, f), "Allreduce SUM of 1 MiB of floats: first difference at "
                + Arrays.mismatch(fs, f));
        world.Allreduce(myD, 0, d, 0, n / 2, MPI.DOUBLE, MPI.MAX);
        Check.that(Arrays.equals(dm, 0, n / 2, d, 0, n / 2), "Allreduce MAX of 1 MiB of doubles");
        world.Allreduce(myL, 0, l, 0, n / 2, MPI.LONG, MPI.PROD);
        Check.that(Arrays.equals(lp, 0, n / 2, l, 0, n / 2), "Allreduce PROD of 1 MiB of longs");
    }

    /**
     * Long reductions the runtime combines in the user's arrays: at offsets other than 0, of a count that is no
     * multiple of the kernels' chunk nor of the members, in place, for every operation and type the array kernels
     * run; each is checked against the one-value fold in rank order, and the elements around the result unwritten.
     */
    static void longVectorsInTheUsersArrays() {
        int n = (1 << 16) + 3;
        int at = 5;
        for (Op op : new Op[] {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN}) {
            int[] ie = new int[n];
            long[] le = new long[n];
            float[] fe = new float[n];
            double[] de = new double[n];
            for (int r = 0; r < size; r++) {
                for (int i = 0; i < n; i++) {
                    int x = v(r, i + 3) % 5 - 2;
                    ie[i] = r == 0 ? x : fold(op, ie[i], x);
                    le[i] = r == 0 ? x : (long) fold(op, le[i], x);
                    fe[i] = r == 0 ? x * 0.5f : (float) fold(op, fe[i], x * 0.5f);
                    de[i] = r == 0 ? x * 0.25 : fold(op, de[i], x * 0.25);
                }
            }
            int[] is = new int[n + 3];
            long[] ls = new long[n + 3];
            float[] fs = new float[n + 3];
            double[] ds = new double[n + 3];
            for (int i = 0; i < n; i++) {
                int x = v(rank, i + 3) % 5 - 2;
                is[i + 3] = x;
                ls[i + 3] = x;
                fs[i + 3] = x * 0.5f;
                ds[i + 3] = x * 0.25;
            }
            int[] ir = new int[n + 2 * at];
            long[] lr = new long[n + 2 * at];
            float[] fr = new float[n + 2 * at];
            double[] dr = new double[n + 2 * at];
            world.Allreduce(is, 3, ir, at, n, MPI.INT, op);
            world.Allreduce(ls, 3, lr, at, n, MPI.LONG, op);
            world.Allreduce(fs, 3, fr, at, n, MPI.FLOAT, op);
            world.Allreduce(ds, 3, dr, at, n, MPI.DOUBLE, op);
            String what = "Allreduce " + op + " of " + n + " values at offsets 3 and " + at;
            Check.that(Arrays.equals(ie, 0, n, ir, at, at + n) && ir[at - 1] == 0 && ir[at + n] == 0, what + " (int)");
            Check.that(Arrays.equals(le, 0, n, lr, at, at + n) && lr[at - 1] == 0 && lr[at + n] == 0, what + " (long)");
            Check.that(Arrays.equals(fe, 0, n, fr, at, at + n) && fr[at - 1] == 0 && fr[at + n] == 0, what + " (float)");
            Check.that(Arrays.equals(de, 0, n, dr, at, at + n) && dr[at - 1] == 0 && dr[at + n] == 0,
                    what + " (double)");
            System.arraycopy(fs, 3, fr, at, n);
            world.Allreduce(MPI.IN_PLACE, 0, fr, at, n, MPI.FLOAT, op);
            Check.that(Arrays.equals(fe, 0, n, fr, at, at + n), "Allreduce IN_PLACE " + op + " of " + n + " floats");
            Check.that(is[2] == 0 && is[3] == v(rank, 3) % 5 - 2, what + ": the send buffer is unchanged");
        }
    }

    private static double fold(Op op, double acc, double x) {
        if (op == MPI.SUM) {
            return x + acc;
        }
        if (op == MPI.PROD) {
            return x * acc;
        }
        return op == MPI.MAX ? Math.max(x, acc) : Math.min(x, acc);
    }

    private static int fold(Op op, int acc, int x) {
        if (op == MPI.SUM) {
            return x + acc;
        }
        if (op == MPI.PROD) {
            return x * acc;
        }
        return op == MPI.MAX ? Math.max(x, acc) : Math.min(x, acc);
    }

    static int[] filled(int n, int value) {
        int[] a = new int[n];
        Arrays.fill(a, value);
        return a;
    }

    static int[] roots() {
        return size == 1 ? new int[] {0} : new int[] {0, size - 1, size / 2};
    }

    public static void main(String[] args) {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.Rank();
        size = world.Size();
        for (int n : SIZES) {
            dataMovement(n);
            reductions(n);
        }
        longVectors();
        longVectorsInTheUsersArrays();
        longBlocks();
        stridedLongBlocks();
        irregular();
        otherTypes();
        inPlace();
        objects();
        errors();
        world.Barrier();
        System.out.println("shared-memory collectives rank " + rank + ": "
                + MpjRuntime.current().sharedMemoryCollectiveCalls());
        System.out.println("fold room allreduces rank " + rank + ": " + MpjRuntime.current().foldRoomAllreduces());
        System.out.println("fold room alltoalls rank " + rank + ": " + MpjRuntime.current().foldRoomAlltoalls());
        Check.done("collectives");
        MPI.Finalize();
    }

    static void dataMovement(int n) {
        for (int root : roots()) {
            int[] b = rank == root ? ints(root, n) : new int[n];
            world.Bcast(b, 0, n, MPI.INT, root);
            same(ints(root, n), b, "Bcast n=" + n + " root=" + root);

            int[] all = new int[n * size];
            world.Gather(ints(rank, n), 0, n, MPI.INT, all, 0, n, MPI.INT, root);
            if (rank == root) {
                for (int r = 0; r < size; r++) {
                    same(ints(r, n), Arrays.copyOfRange(all, r * n, r * n + n), "Gather n=" + n + " block " + r);
                }
            }
            int[] mine = new int[n];
            world.Scatter(ints(root, n * size), 0, n, MPI.INT, mine, 0, n, MPI.INT, root);
            same(Arrays.copyOfRange(ints(root, n * size), rank * n, rank * n + n), mine, "Scatter n=" + n);
        }
        int[] all = new int[n * size + 3];
        world.Allgather(ints(rank, n), 0, n, MPI.INT, all, 3, n, MPI.INT);
        for (int r = 0; r < size; r++) {
            same(ints(r, n), Arrays.copyOfRange(all, 3 + r * n, 3 + r * n + n), "Allgather n=" + n + " block " + r);
        }
        int block = Math.max(1, n / size);
        int[] out = ints(rank, block * size);
        int[] in = new int[block * size];
        world.Alltoall(out, 0, block, MPI.INT, in, 0, block, MPI.INT);
        for (int r = 0; r < size; r++) {
            same(Arrays.copyOfRange(ints(r, block * size), rank * block, rank * block + block),
                    Arrays.copyOfRange(in, r * block, r * block + block), "Alltoall block " + block + " from " + r);
        }
    }

    static void reductions(int n) {
        int[] sum = new int[n];
        world.Allreduce(ints(rank, n), 0, sum, 0, n, MPI.INT, MPI.SUM);
        same(sums(size - 1, n), sum, "Allreduce SUM n=" + n);
        int[] map = new int[2 * n];
        world.Allreduce(maps(rank, n), 0, map, 0, n, MPI.INT2, COMPOSE);
        same(composed(size - 1, n), map, "Allreduce user op in rank order n=" + n);
        for (int root : roots()) {
            int[] r = new int[2 * n];
            world.Reduce(maps(rank, n), 0, r, 0, n, MPI.INT2, COMPOSE, root);
            if (rank == root) {
                same(composed(size - 1, n), r, "Reduce user op n=" + n + " root=" + root);
            }
            double[] max = new double[n];
            double[] mineD = new double[n];
            for (int i = 0; i < n; i++) {
                mineD[i] = -v(rank, i) * 0.5;
            }
            world.Reduce(mineD, 0, max, 0, n, MPI.DOUBLE, MPI.MAX, root);
            if (rank == root) {
                for (int i = 0; i < n; i++) {
                    Check.that(max[i] == -v(0, i) * 0.5, "Reduce MAX double at " + i);
                }
            }
        }
        int[] scan = new int[n];
        world.Scan(ints(rank, n), 0, scan, 0, n, MPI.INT, MPI.SUM);
        same(sums(rank, n), scan, "Scan SUM n=" + n);
        int[] scanMap = new int[2 * n];
        world.Scan(maps(rank, n), 0, scanMap, 0, n, MPI.INT2, COMPOSE);
        same(composed(rank, n), scanMap, "Scan user op n=" + n);
        // Exscan: rank 0's buffer stays as it was, the others get the scan of the ranks below them
        int[] exscan = new int[n];
        Arrays.fill(exscan, -7);
        world.Exscan(ints(rank, n), 0, exscan, 0, n, MPI.INT, MPI.SUM);
        same(rank == 0 ? filled(n, -7) : sums(rank - 1, n), exscan, "Exscan SUM n=" + n);
        int[] exscanMap = filled(2 * n, -7);
        world.Exscan(maps(rank, n), 0, exscanMap, 0, n, MPI.INT2, COMPOSE);
        same(rank == 0 ? filled(2 * n, -7) : composed(rank - 1, n), exscanMap, "Exscan user op n=" + n);
        int[] counts = new int[size];
        Arrays.fill(counts, n / size);
        counts[size - 1] += n % size;
        int[] part = new int[counts[rank]];
        world.Reduce_scatter(ints(rank, n), 0, part, 0, counts, MPI.INT, MPI.SUM);
        int from = (n / size) * rank;
        same(Arrays.copyOfRange(sums(size - 1, n), from, from + counts[rank]), part, "Reduce_scatter n=" + n);
        // MAXLOC: the largest value is held by the top two ranks; the tie goes to the lower index
        int[] pair = {Math.min(rank, Math.max(0, size - 2)), rank};
        int[] best = new int[2];
        world.Allreduce(pair, 0, best, 0, 1, MPI.INT2, MPI.MAXLOC);
        same(new int[] {Math.max(0, size - 2), Math.max(0, size - 2)}, best, "MAXLOC tie");
    }

    /** Uneven blocks at displacements with gaps: rank r has r + 1 items, placed at 3·r. */
    /**
     * Alltoalls of long blocks around the sizes where a pair's path changes (the collective room's longest block
     * and one int more, the fold room's regions of 256 KiB, two pieces of them; for a pair also four pieces, its
     * longest block, and one more int, which keeps the bulk channel's stream), from and into arrays at offsets other
     * than 0; prints the blocks, in bytes, that went through the fold room.
     */
    static void longBlocks() {
        int region = (256 << 10) / Integer.BYTES;
        int[] blocks = {256, 257, 4095, 4096, 16_384, region - 1, region, region + 1, 2 * region, 2 * region + 1};
        if (size == 2) {
            blocks = IntStream.concat(Arrays.stream(blocks), IntStream.of(4 * region, 4 * region + 1)).toArray();
        }
        StringJoiner throughRoom = new StringJoiner(",", "[", "]");
        for (int block : blocks) {
            int[] out = ints(rank, 3 + block * size);
            int[] in = new int[5 + block * size];
            long before = MpjRuntime.current().foldRoomAlltoalls();
            world.Alltoall(out, 3, block, MPI.INT, in, 5, block, MPI.INT);
            if (MpjRuntime.current().foldRoomAlltoalls() > before) {
                throughRoom.add(Integer.toString(block * Integer.BYTES));
            }
            for (int r = 0; r < size; r++) {
                int from = 3 + rank * block;
                same(Arrays.copyOfRange(ints(r, 3 + block * size), from, from + block),
                        Arrays.copyOfRange(in, 5 + r * block, 5 + r * block + block),
                        "Alltoall of long blocks, block " + block + " from " + r);
            }
        }
        System.out.println("fold room alltoall blocks rank " + rank + ": " + throughRoom);
    }

    /** A long-block alltoall of a strided type: every item's two ints land apart, the int between is left alone. */
    static void stridedLongBlocks() {
        Datatype gapped = Datatype.Vector(2, 1, 2, MPI.INT); // ints 0 and 2 of 3
        gapped.Commit();
        int items = 4096;
        int[] out = ints(rank, 3 * items * size);
        int[] in = new int[3 * items * size];
        Arrays.fill(in, -1);
        world.Alltoall(out, 0, items, gapped, in, 0, items, gapped);
        for (int r = 0; r < size; r++) {
            int[] theirs = ints(r, 3 * items * size);
            for (int i = 0; i < items; i++) {
                int at = 3 * (r * items + i);
                int from = 3 * (rank * items + i);
                Check.that(in[at] == theirs[from] && in[at + 2] == theirs[from + 2] && in[at + 1] == -1,
                        "strided Alltoall item " + i + " from " + r);
            }
        }
    }

    static void irregular() {
        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = r + 1;
            displs[r] = 3 * r + r * (r + 1) / 2;
        }
        int span = displs[size - 1] + counts[size - 1];
        for (int root : roots()) {
            int[] all = new int[span];
            world.Gatherv(ints(rank, rank + 1), 0, rank + 1, MPI.INT, all, 0, counts, displs, MPI.INT, root);
            if (rank == root) {
                for (int r = 0; r < size; r++) {
                    same(ints(r, r + 1), Arrays.copyOfRange(all, displs[r], displs[r] + r + 1), "Gatherv block " + r);
                }
            }
            int[] mine = new int[rank + 1];
            world.Scatterv(ints(root, span), 0, counts, displs, MPI.INT, mine, 0, rank + 1, MPI.INT, root);
            same(Arrays.copyOfRange(ints(root, span), displs[rank], displs[rank] + rank + 1), mine, "Scatterv");
        }
        int[] all = new int[span];
        world.Allgatherv(ints(rank, rank + 1), 0, rank + 1, MPI.INT, all, 0, counts, displs, MPI.INT);
        for (int r = 0; r < size; r++) {
            same(ints(r, r + 1), Arrays.copyOfRange(all, displs[r], displs[r] + r + 1), "Allgatherv block " + r);
        }
        // alltoallv: rank i sends j + 1 items to rank j, from items 2·j on; they land at size·i
        int[] sc = new int[size];
        int[] sd = new int[size];
        int[] rc = new int[size];
        int[] rd = new int[size];
        for (int j = 0; j < size; j++) {
            sc[j] = j + 1;
            sd[j] = 2 * j;
            rc[j] = rank + 1;
            rd[j] = size * j;
        }
        int[] got = new int[size * size];
        world.Alltoallv(ints(rank, 3 * size + 1), 0, sc, sd, MPI.INT, got, 0, rc, rd, MPI.INT);
        for (int i = 0; i < size; i++) {
            same(Arrays.copyOfRange(ints(i, 3 * size + 1), 2 * rank, 3 * rank + 1),
                    Arrays.copyOfRange(got, size * i, size * i + rank + 1), "Alltoallv from " + i);
        }
    }

    static void otherTypes() {
        byte[] bytes = new byte[50_000];
        if (rank == 0) {
            Arrays.fill(bytes, (byte) 7);
        }
        world.Bcast(bytes, 0, bytes.length, MPI.BYTE, 0);
        Check.that(bytes[49_999] == 7 && bytes[0] == 7, "Bcast byte[]");
        ByteBuffer direct = ByteBuffer.allocateDirect(8 * 3).order(ByteOrder.LITTLE_ENDIAN);
        direct.putLong(8, rank + 1L);
        world.Allreduce(new long[] {rank + 1L}, 0, direct, 2, 1, MPI.LONG, MPI.PROD);
        long factorial = 1;
        for (int r = 1; r <= size; r++) {
            factorial *= r;
        }
        Check.equal(factorial, direct.getLong(16), "Allreduce PROD into a direct ByteBuffer");
        short[] s = new short[1];
        world.Allreduce(new short[] {(short) (rank + 1)}, 0, s, 0, 1, MPI.SHORT, MPI.SUM);
        Check.equal(size * (size + 1) / 2, s[0], "Allreduce SUM short");
        char[] c = new char[1];
        world.Allreduce(new char[] {(char) (0xFF00 + rank)}, 0, c, 0, 1, MPI.CHAR, MPI.MAX);
        Check.equal(0xFF00 + size - 1, c[0], "Allreduce MAX char (unsigned)");
        float[] f = new float[1];
        world.Allreduce(new float[] {rank}, 0, f, 0, 1, MPI.FLOAT, MPI.MIN);
        Check.that(f[0] == 0f, "Allreduce MIN float");
        boolean[] flags = new boolean[2];
        world.Allreduce(new boolean[] {rank == 0, true}, 0, flags, 0, 2, MPI.BOOLEAN, MPI.LAND);
        Check.that(flags[0] == (size == 1) && flags[1], "Allreduce LAND boolean");
        int[] bits = new int[1];
        world.Allreduce(new int[] {1 << rank}, 0, bits, 0, 1, MPI.INT, MPI.BOR);
        Check.equal((1 << size) - 1, bits[0], "Allreduce BOR int");
    }

    static void inPlace() {
        int n = 100;
        int[] a = ints(rank, n);
        world.Allreduce(MPI.IN_PLACE, 0, a, 0, n, MPI.INT, MPI.SUM);
        same(sums(size - 1, n), a, "Allreduce IN_PLACE");
        int[] r = ints(rank, n);
        world.Reduce(rank == 0 ? MPI.IN_PLACE : r, 0, r, 0, n, MPI.INT, MPI.SUM, 0);
        if (rank == 0) {
            same(sums(size - 1, n), r, "Reduce IN_PLACE at the root");
        }
        int[] s = ints(rank, n);
        world.Scan(MPI.IN_PLACE, 0, s, 0, n, MPI.INT, MPI.SUM);
        same(sums(rank, n), s, "Scan IN_PLACE");
        int[] x = ints(rank, n);
        world.Exscan(MPI.IN_PLACE, 0, x, 0, n, MPI.INT, MPI.SUM);
        same(rank == 0 ? ints(0, n) : sums(rank - 1, n), x, "Exscan IN_PLACE");
        int[] all = new int[n * size];
        System.arraycopy(ints(rank, n), 0, all, rank * n, n);
        world.Allgather(MPI.IN_PLACE, 0, 0, MPI.INT, all, 0, n, MPI.INT);
        for (int k = 0; k < size; k++) {
            same(ints(k, n), Arrays.copyOfRange(all, k * n, k * n + n), "Allgather IN_PLACE block " + k);
        }
        int[] g = new int[n * size];
        if (rank == 0) {
            System.arraycopy(ints(0, n), 0, g, 0, n);
        }
        world.Gather(rank == 0 ? MPI.IN_PLACE : ints(rank, n), 0, n, MPI.INT, g, 0, n, MPI.INT, 0);
        if (rank == 0) {
            for (int k = 0; k < size; k++) {
                same(ints(k, n), Arrays.copyOfRange(g, k * n, k * n + n), "Gather IN_PLACE block " + k);
            }
        }
        int[] t = ints(rank, size * 2);
        world.Alltoall(MPI.IN_PLACE, 0, 0, MPI.INT, t, 0, 2, MPI.INT);
        for (int k = 0; k < size; k++) {
            same(Arrays.copyOfRange(ints(k, size * 2), 2 * rank, 2 * rank + 2),
                    Arrays.copyOfRange(t, 2 * k, 2 * k + 2), "Alltoall IN_PLACE from " + k);
        }
        int[] counts = new int[size];
        Arrays.fill(counts, 2);
        int[] rs = ints(rank, 2 * size);
        world.Reduce_scatter(MPI.IN_PLACE, 0, rs, 0, counts, MPI.INT, MPI.SUM);
        same(Arrays.copyOfRange(sums(size - 1, 2 * size), 2 * rank, 2 * rank + 2), Arrays.copyOf(rs, 2),
                "Reduce_scatter IN_PLACE");
        int[] sc = ints(0, 3 * size);
        int[] mine = new int[3];
        world.Scatter(sc, 0, 3, MPI.INT, rank == 0 ? MPI.IN_PLACE : mine, 0, 3, MPI.INT, 0);
        if (rank != 0) {
            same(Arrays.copyOfRange(ints(0, 3 * size), 3 * rank, 3 * rank + 3), mine, "Scatter IN_PLACE at the root");
        }
    }

    /** String concatenation, lower rank first: associative, not commutative. */
    static final Op CONCAT = new Op(new User_function() {
        @Override
        public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            Object[] in = (Object[]) invec;
            Object[] io = (Object[]) inoutvec;
            for (int k = 0; k < count; k++) {
                io[inoutoffset + k] = (String) in[inoffset + k] + io[inoutoffset + k];
            }
        }
    }, false);

    /** Rank r's object for slot i: its size grows with r, so the blocks have different byte lengths. */
    static String s(int r, int i) {
        return "r" + r + "i" + i + "x".repeat(r * 10);
    }

    static String concatUpTo(int upTo, int i) {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r <= upTo; r++) {
            b.append(s(r, i));
        }
        return b.toString();
    }

    static void sameObjects(Object[] expected, Object[] actual, String what) {
        Check.that(Arrays.deepEquals(expected, actual), what + ": expected " + Arrays.deepToString(expected)
                + " but was " + Arrays.deepToString(actual));
    }

    static void objects() {
        int root = size - 1;
        Object[] mine = {s(rank, 0), List.of(rank, s(rank, 1))};
        Object[] b = rank == root ? new Object[] {s(root, 0), Map.of("k", root)} : new Object[2];
        world.Bcast(b, 0, 2, MPI.OBJECT, root);
        sameObjects(new Object[] {s(root, 0), Map.of("k", root)}, b, "Bcast of objects");
        Object[] all = new Object[2 * size];
        Object[] expected = new Object[2 * size];
        for (int r = 0; r < size; r++) {
            expected[2 * r] = s(r, 0);
            expected[2 * r + 1] = List.of(r, s(r, 1));
        }
        world.Gather(mine, 0, 2, MPI.OBJECT, all, 0, 2, MPI.OBJECT, root);
        if (rank == root) {
            sameObjects(expected, all, "Gather of objects");
        }
        Object[] every = new Object[2 * size];
        world.Allgather(mine, 0, 2, MPI.OBJECT, every, 0, 2, MPI.OBJECT);
        sameObjects(expected, every, "Allgather of objects");
        // rank r sends r + 1 objects; they land in reverse rank order
        int[] counts = new int[size];
        int[] displs = new int[size];
        int total = 0;
        for (int r = size - 1; r >= 0; r--) {
            counts[r] = r + 1;
            displs[r] = total;
            total += r + 1;
        }
        Object[] many = new Object[rank + 1];
        for (int i = 0; i <= rank; i++) {
            many[i] = s(rank, i);
        }
        Object[] v = new Object[total];
        world.Allgatherv(many, 0, rank + 1, MPI.OBJECT, v, 0, counts, displs, MPI.OBJECT);
        Object[] vExpected = new Object[total];
        for (int r = 0; r < size; r++) {
            for (int i = 0; i <= r; i++) {
                vExpected[displs[r] + i] = s(r, i);
            }
        }
        sameObjects(vExpected, v, "Allgatherv of objects");
        Object[] gv = new Object[total];
        world.Gatherv(many, 0, rank + 1, MPI.OBJECT, gv, 0, counts, displs, MPI.OBJECT, 0);
        if (rank == 0) {
            sameObjects(vExpected, gv, "Gatherv of objects");
        }
        Object[] back = new Object[rank + 1];
        world.Scatterv(vExpected, 0, counts, displs, MPI.OBJECT, back, 0, rank + 1, MPI.OBJECT, root);
        sameObjects(many, back, "Scatterv of objects");
        Object[] one = new Object[1];
        world.Scatter(every, 0, 1, MPI.OBJECT, one, 0, 1, MPI.OBJECT, 0);
        sameObjects(new Object[] {every[rank]}, one, "Scatter of objects");
        // block j of rank i: "i>j" repeated i + 1 times
        Object[] out = new Object[size];
        for (int j = 0; j < size; j++) {
            out[j] = (rank + ">" + j).repeat(rank + 1);
        }
        Object[] in = new Object[size];
        world.Alltoall(out, 0, 1, MPI.OBJECT, in, 0, 1, MPI.OBJECT);
        Object[] inExpected = new Object[size];
        for (int i = 0; i < size; i++) {
            inExpected[i] = (i + ">" + rank).repeat(i + 1);
        }
        sameObjects(inExpected, in, "Alltoall of objects");
        int[] ones = filled(size, 1);
        int[] steps = new int[size];
        for (int i = 0; i < size; i++) {
            steps[i] = size - 1 - i;
        }
        Object[] inV = new Object[size];
        world.Alltoallv(out, 0, ones, steps, MPI.OBJECT, inV, 0, ones, steps, MPI.OBJECT);
        for (int i = 0; i < size; i++) {
            // member i sent its block size-1-rank (from sdispls[rank]) into slot rdispls[i] = size-1-i
            Check.that(inV[size - 1 - i].equals((i + ">" + (size - 1 - rank)).repeat(i + 1)),
                    "Alltoallv of objects from " + i);
        }
        objectReductions();
    }

    static void objectReductions() {
        int n = 3;
        Object[] mine = new Object[n];
        for (int i = 0; i < n; i++) {
            mine[i] = s(rank, i);
        }
        Object[] whole = new Object[n];
        Object[] upToMe = new Object[n];
        for (int i = 0; i < n; i++) {
            whole[i] = concatUpTo(size - 1, i);
            upToMe[i] = concatUpTo(rank, i);
        }
        Object[] all = new Object[n];
        world.Allreduce(mine, 0, all, 0, n, MPI.OBJECT, CONCAT);
        sameObjects(whole, all, "Allreduce of strings");
        for (int root : roots()) {
            Object[] r = new Object[n];
            world.Reduce(mine, 0, r, 0, n, MPI.OBJECT, CONCAT, root);
            if (rank == root) {
                sameObjects(whole, r, "Reduce of strings at " + root);
            }
        }
        Object[] scan = new Object[n];
        world.Scan(mine, 0, scan, 0, n, MPI.OBJECT, CONCAT);
        sameObjects(upToMe, scan, "Scan of strings");
        Object[] ex = {"kept", "kept", "kept"};
        world.Exscan(mine, 0, ex, 0, n, MPI.OBJECT, CONCAT);
        for (int i = 0; i < n; i++) {
            Check.that(ex[i].equals(rank == 0 ? "kept" : concatUpTo(rank - 1, i)), "Exscan of strings, slot " + i);
        }
        // one slot per rank: rank r gets slot r of the combined vector
        Object[] wide = new Object[size];
        for (int i = 0; i < size; i++) {
            wide[i] = s(rank, i);
        }
        Object[] got = new Object[1];
        world.Reduce_scatter(wide, 0, got, 0, filled(size, 1), MPI.OBJECT, CONCAT);
        Check.that(got[0].equals(concatUpTo(size - 1, rank)), "Reduce_scatter of strings");
        // An error inside a collective revokes its communicator's collectives, so this one gets a communicator of
        // its own: each member raises the refusal itself, or hears of it from a member that did first.
        Intracomm gadgets = world.Dup();
        try {
            Object[] gadget = {rank == 0 ? new javax.management.ObjectName("a:b=c") : "fine"};
            gadgets.Allgather(gadget, 0, 1, MPI.OBJECT, new Object[size], 0, 1, MPI.OBJECT);
            Check.that(false, "a javax.management object was deserialised");
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        } catch (MPIException e) {
            Check.that(e.getErrorClass() == MPI.ERR_OTHER || e.getErrorClass() == MPI.ERR_REVOKED,
                    "error class of a refused class: " + e.getErrorClass());
            Check.that(e.getMessage().contains("javax.management.ObjectName"), "the error names the refused class: "
                    + e.getMessage());
        }
        gadgets.Free();
    }

    static void errors() {
        try {
            world.Bcast(new int[1], 0, 1, MPI.INT, size);
            Check.that(false, "Bcast to root " + size + " did not fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_ROOT, e.getErrorClass(), "error class of a bad root");
        }
        try {
            world.Allreduce(new double[1], 0, new double[1], 0, 1, MPI.DOUBLE, MPI.BAND);
            Check.that(false, "BAND on doubles did not fail");
        } catch (MPIException e) {
            Check.equal(MPI.ERR_OP, e.getErrorClass(), "error class of BAND on MPI.DOUBLE");
        }
    }
}
