package dev.mpj.it;

import mpi.Datatype;
import mpi.MPI;
import mpi.Status;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Ranks pair up (0-1, 2-3, …; an odd last rank talks to itself) and ping-pong every datatype at sizes
 * from 0 bytes to the largest given in bytes (default 8 MiB), crossing the eager threshold; the reply
 * carries the data transformed, so both directions are checked. Also direct ByteBuffers and OBJECT.
 */
public final class PingPongProgram {
    private static final int TAG = 7;

    private PingPongProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int maxBytes = args.length > 0 ? Integer.parseInt(args[0]) : 8 << 20;
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int peer = (rank % 2 == 0) ? (rank + 1 < size ? rank + 1 : rank) : rank - 1;
        boolean first = rank <= peer;
        for (int bytes = 0; bytes <= maxBytes; bytes = bytes == 0 ? 1 : bytes * 8) {
            pingPongAllTypes(bytes, peer, first);
        }
        pingPongAllTypes(maxBytes, peer, first);
        pingPongDirect(maxBytes, peer, first);
        pingPongObjects(peer, first);
        Check.done("pingpong");
        MPI.Finalize();
    }

    private static void pingPongAllTypes(int bytes, int peer, boolean first) {
        int n;
        n = bytes;
        exchange(MPI.BYTE, fill(new byte[n + 3]), new byte[n + 3], n, peer, first);
        n = bytes / 2;
        exchange(MPI.SHORT, fill(new short[n + 3]), new short[n + 3], n, peer, first);
        exchange(MPI.CHAR, fill(new char[n + 3]), new char[n + 3], n, peer, first);
        n = bytes / 4;
        exchange(MPI.INT, fill(new int[n + 3]), new int[n + 3], n, peer, first);
        exchange(MPI.FLOAT, fill(new float[n + 3]), new float[n + 3], n, peer, first);
        n = bytes / 8;
        exchange(MPI.LONG, fill(new long[n + 3]), new long[n + 3], n, peer, first);
        exchange(MPI.DOUBLE, fill(new double[n + 3]), new double[n + 3], n, peer, first);
        n = Math.min(bytes, 1 << 20);
        exchange(MPI.BOOLEAN, fill(new boolean[n + 3]), new boolean[n + 3], n, peer, first);
    }

    /** Sends count elements from offset 2 of data, receives into offset 1 of room, compares. */
    private static void exchange(Datatype type, Object data, Object room, int count, int peer, boolean first) {
        if (peer == MPI.COMM_WORLD.Rank()) {
            Status s = MPI.COMM_WORLD.Sendrecv(data, 2, count, type, peer, TAG, room, 1, count, type, peer, TAG);
            check(s, data, room, count, type, peer);
        } else if (first) {
            MPI.COMM_WORLD.Send(data, 2, count, type, peer, TAG);
            Status s = MPI.COMM_WORLD.Recv(room, 1, count, type, peer, TAG);
            check(s, data, room, count, type, peer);
        } else {
            Status s = MPI.COMM_WORLD.Recv(room, 1, count, type, peer, TAG);
            check(s, data, room, count, type, peer);
            MPI.COMM_WORLD.Send(data, 2, count, type, peer, TAG);
        }
    }

    private static void check(Status s, Object data, Object room, int count, Datatype type, int peer) {
        Check.equal(peer, s.source, "status source");
        Check.equal(TAG, s.tag, "status tag");
        Check.equal(count, s.Get_count(type), "count of " + type);
        Object expected = slice(data, 2, count);
        Object got = slice(room, 1, count);
        Check.that(Arrays.deepEquals(new Object[]{expected}, new Object[]{got}),
                "data of " + count + " elements of " + type + " differs");
    }

    private static Object slice(Object array, int from, int count) {
        Object out = java.lang.reflect.Array.newInstance(array.getClass().getComponentType(), count);
        System.arraycopy(array, from, out, 0, count);
        return out;
    }

    private static void pingPongDirect(int bytes, int peer, boolean first) {
        int n = bytes / 8;
        ByteBuffer out = ByteBuffer.allocateDirect(bytes + 16).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n + 2; i++) {
            out.putDouble(i * 8, i * 0.5);
        }
        ByteBuffer in = ByteBuffer.allocateDirect(bytes + 16).order(ByteOrder.LITTLE_ENDIAN);
        if (peer == MPI.COMM_WORLD.Rank()) {
            MPI.COMM_WORLD.Sendrecv(out, 1, n, MPI.DOUBLE, peer, TAG, in, 1, n, MPI.DOUBLE, peer, TAG);
        } else if (first) {
            MPI.COMM_WORLD.Send(out, 1, n, MPI.DOUBLE, peer, TAG);
            MPI.COMM_WORLD.Recv(in, 1, n, MPI.DOUBLE, peer, TAG);
        } else {
            MPI.COMM_WORLD.Recv(in, 1, n, MPI.DOUBLE, peer, TAG);
            MPI.COMM_WORLD.Send(out, 1, n, MPI.DOUBLE, peer, TAG);
        }
        for (int i = 1; i <= n; i++) {
            Check.that(in.getDouble(i * 8) == i * 0.5, "direct buffer element " + i);
        }
    }

    private static void pingPongObjects(int peer, boolean first) {
        Object[] out = {"text", 42, new int[]{1, 2, 3}, null, java.util.List.of("a", "b")};
        Object[] in = new Object[out.length + 2];
        if (first) {
            MPI.COMM_WORLD.Send(out, 0, out.length, MPI.OBJECT, peer, TAG);
            MPI.COMM_WORLD.Recv(in, 2, out.length, MPI.OBJECT, peer, TAG);
        } else {
            MPI.COMM_WORLD.Recv(in, 2, out.length, MPI.OBJECT, peer, TAG);
            MPI.COMM_WORLD.Send(out, 0, out.length, MPI.OBJECT, peer, TAG);
        }
        Check.that(Arrays.deepEquals(out, Arrays.copyOfRange(in, 2, in.length)), "objects differ");
    }

    private static byte[] fill(byte[] a) {
        for (int i = 0; i < a.length; i++) {
            a[i] = (byte) (i * 7 + 1);
        }
        return a;
    }

    private static short[] fill(short[] a) {
        for (int i = 0; i < a.length; i++) {
            a[i] = (short) (i * 13 - 5);
        }
        return a;
    }

    private static char[] fill(char[] a) {
        for (int i = 0; i < a.length; i++) {
            a[i] = (char) (i * 17 + 3);
        }
        return a;
    }

    private static int[] fill(int[] a) {
        for (int i = 0; i < a.length; i++) {
            a[i] = i * 1_000_003 - 7;
        }
        return a;
    }

    private static float[] fill(float[] a) {
        for (int i = 0; i < a.length; i++) {
            a[i] = i * 0.25f - 1;
        }
        return a;
    }

    private static long[] fill(long[] a) {
        for (int i = 0; i < a.length; i++) {
            a[i] = i * 0x1_0000_0001L;
        }
        return a;
    }

    private static double[] fill(double[] a) {
        for (int i = 0; i < a.length; i++) {
            a[i] = i / 3.0;
        }
        return a;
    }

    private static boolean[] fill(boolean[] a) {
        for (int i = 0; i < a.length; i++) {
            a[i] = i % 3 == 0;
        }
        return a;
    }
}
