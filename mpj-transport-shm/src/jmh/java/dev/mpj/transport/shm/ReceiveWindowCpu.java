package dev.mpj.transport.shm;

import dev.mpj.api.Operation;
import dev.mpj.runtime.engine.ProgressEngine;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The thread CPU per message of windows of 64 non-blocking receives of {@code BYTES}-byte messages into a
 * {@code byte[]}, as {@code osu_mbw_mr} posts them, through two engines over a real ring on one thread: the receives
 * posted, the 64 standard sends copied into the ring, the ring read until the window is complete, the operations
 * released. Posted into a room wrapped around the array ({@code room}) or straight into the array ({@code array},
 * {@link ProgressEngine#receiveIntoArray}), alternated round by round. Thread CPU rather than wall time, which a
 * loaded machine swamps; no cross-core traffic and not the {@code mpi} classes.
 * {@code java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp <the module's test classpath>
 * dev.mpj.transport.shm.ReceiveWindowCpu [BYTES [WINDOWS [ROUNDS]]]}
 */
public final class ReceiveWindowCpu {
    private static final int WINDOW = 64;
    private static final int CONTEXT = 4;
    private static final int TAG = 2;

    private ReceiveWindowCpu() {
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
            byte[] from = new byte[bytes];
            byte[] into = new byte[bytes];
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            for (boolean array : new boolean[] {false, true}) {
                windows(receiver, sender, from, into, array, windows); // warm-up
            }
            System.out.println("round  way    cpu ns/message");
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < 2; k++) {
                    boolean array = (round + k) % 2 == 1;
                    long start = threads.getCurrentThreadCpuTime();
                    windows(receiver, sender, from, into, array, windows);
                    double nanos = (threads.getCurrentThreadCpuTime() - start) / ((double) WINDOW * windows);
                    System.out.printf("%5d  %-5s  %14.1f%n", round, array ? "array" : "room", nanos);
                }
            }
        } finally {
            node.close();
            Files.deleteIfExists(node.file);
            Files.deleteIfExists(dir);
        }
    }

    private static void windows(ProgressEngine receiver, ProgressEngine sender, byte[] from, byte[] into,
                                boolean array, int windows) throws IOException {
        Operation[] ops = new Operation[WINDOW];
        for (int w = 0; w < windows; w++) {
            for (int i = 0; i < WINDOW; i++) {
                ops[i] = array ? receiver.receiveIntoArray(into, 0, 1, into.length, 1, TAG, CONTEXT)
                        : receiver.receive(ByteBuffer.wrap(into), 1, TAG, CONTEXT);
            }
            for (int i = 0; i < WINDOW; i++) {
                if (!sender.sendNow(ByteBuffer.wrap(from).slice(), 0, TAG, CONTEXT)) {
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
