package dev.mpj.transport.shm;

import dev.mpj.api.Operation;
import dev.mpj.runtime.engine.ProgressEngine;
import mpi.MPI;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The thread CPU per message of windows of 64 non-blocking {@code BYTES}-byte messages from one {@code byte[]} into
 * another, as {@code osu_mbw_mr} sends them, through two engines over a real ring on one thread: the receives
 * posted, the 64 standard sends copied into the ring, the ring read until the window is complete, the operations
 * released. Four ways, alternated round by round: sends from a buffer wrapped around the array or from the array
 * itself ({@link ProgressEngine#sendNow(byte[], int, int, int, int, int)}), receives into a room wrapped around the
 * array or into the array ({@link ProgressEngine#receiveIntoArray}). Thread CPU rather than wall time, which a loaded
 * machine swamps; no cross-core traffic and not the {@code mpi} classes. The engines take their lock as a
 * {@code THREAD_SINGLE} job's ranks do.
 * {@code java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp <the module's test classpath>
 * dev.mpj.transport.shm.SendWindowCpu [BYTES [WINDOWS [ROUNDS]]]}
 */
public final class SendWindowCpu {
    private static final int WINDOW = 64;
    private static final int CONTEXT = 4;
    private static final int TAG = 2;
    private static final String[] WAYS = {"wrapped/room", "array/room", "wrapped/array", "array/array"};

    private SendWindowCpu() {
    }

    public static void main(String[] args) throws Exception {
        int bytes = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int windows = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        Path dir = Files.createTempDirectory("mpj-cpu");
        ShmNode node = ShmNode.create(dir, 2, 16 << 20);
        try {
            ProgressEngine receiver = ShmEngineTest.engine(node, 0);
            ProgressEngine sender = ShmEngineTest.engine(node, 1);
            // the engine lock of a job's ranks, which take no atomic instruction per entry
            receiver.setThreadLevel(MPI.THREAD_SINGLE);
            sender.setThreadLevel(MPI.THREAD_SINGLE);
            byte[] from = new byte[bytes];
            byte[] into = new byte[bytes];
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            for (int way = 0; way < WAYS.length; way++) {
                windows(receiver, sender, from, into, way, windows); // warm-up
            }
            System.out.println("round  send/receive   cpu ns/message");
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < WAYS.length; k++) {
                    int way = (round + k) % WAYS.length;
                    long start = threads.getCurrentThreadCpuTime();
                    windows(receiver, sender, from, into, way, windows);
                    double nanos = (threads.getCurrentThreadCpuTime() - start) / ((double) WINDOW * windows);
                    System.out.printf("%5d  %-13s  %14.1f%n", round, WAYS[way], nanos);
                }
            }
        } finally {
            node.close();
            Files.deleteIfExists(node.file);
            Files.deleteIfExists(dir);
        }
    }

    /** {@code windows} windows the {@code way} of {@link #WAYS}: bit 0 sends from the array, bit 1 receives into it. */
    private static void windows(ProgressEngine receiver, ProgressEngine sender, byte[] from, byte[] into, int way,
                                int windows) throws IOException {
        boolean sendFromArray = (way & 1) != 0;
        boolean receiveIntoArray = (way & 2) != 0;
        Operation[] ops = new Operation[WINDOW];
        for (int w = 0; w < windows; w++) {
            for (int i = 0; i < WINDOW; i++) {
                ops[i] = receiveIntoArray ? receiver.receiveIntoArray(into, 0, 1, into.length, 1, TAG, CONTEXT)
                        : receiver.receive(ByteBuffer.wrap(into), 1, TAG, CONTEXT);
            }
            for (int i = 0; i < WINDOW; i++) {
                boolean sent = sendFromArray ? sender.sendNow(from, 0, from.length, 0, TAG, CONTEXT)
                        : sender.sendNow(ByteBuffer.wrap(from).slice(), 0, TAG, CONTEXT);
                if (!sent) {
                    throw new IOException("no eager credit left: the window is larger than the receiver's credit");
                }
            }
            while (!ops[WINDOW - 1].isComplete()) {
                receiver.poll();
            }
            sender.poll(); // takes the credit the receiver returned
            for (Operation op : ops) {
                receiver.release(op);
            }
        }
    }
}
