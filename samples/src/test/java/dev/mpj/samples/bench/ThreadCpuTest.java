package dev.mpj.samples.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThreadCpuTest {
    private static final long BURN_NANOS = TimeUnit.MILLISECONDS.toNanos(60);
    /** Where the burn's result goes, so the JIT cannot drop the loop. */
    private static volatile long sink;

    @Test
    void threadsAreSortedByTheirNames() {
        assertEquals(ThreadCpu.Kind.JIT, ThreadCpu.Kind.of("C1 CompilerThre"));
        assertEquals(ThreadCpu.Kind.JIT, ThreadCpu.Kind.of("C2 CompilerThre"));
        assertEquals(ThreadCpu.Kind.GC, ThreadCpu.Kind.of("G1 Conc#0"));
        assertEquals(ThreadCpu.Kind.GC, ThreadCpu.Kind.of("GC Thread#1"));
        assertEquals(ThreadCpu.Kind.RUNTIME, ThreadCpu.Kind.of("mpj-tcp-start"));
        assertEquals(ThreadCpu.Kind.OTHER, ThreadCpu.Kind.of("VM Thread"));
    }

    @Test
    void describeListsEveryKindAndTheTotal() {
        assertEquals("mpi 1.0, jit 2.0, gc 0.0, runtime 0.5, other 0.0 = 3.5",
                ThreadCpu.describe(new double[]{1, 2, 0, 0.5, 0}));
    }

    @Test
    void theCallerIsCountedFromTheEndOfOneSnapshotToTheStartOfTheNext() {
        double[] ms = ThreadCpu.millisPerCall(new ThreadCpu.Sample(new long[]{1_000_000, 0, 0, 0, 0}, 3_000_000),
                new ThreadCpu.Sample(new long[]{7_000_000, 4_000_000, 0, 0, 0}, 9_000_000), 2);
        assertEquals(2.0, ms[ThreadCpu.Kind.MPI.ordinal()]);
        assertEquals(2.0, ms[ThreadCpu.Kind.JIT.ordinal()]);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    @Timeout(30)
    void aSnapshotsOwnWorkIsNotCountedToTheCaller() {
        ThreadCpu cpu = new ThreadCpu();
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        long start = bean.getCurrentThreadCpuTime();
        ThreadCpu.Sample first = cpu.snapshot();
        ThreadCpu.Sample second = cpu.snapshot();
        long bothSnapshots = bean.getCurrentThreadCpuTime() - start;

        double between = ThreadCpu.millisPerCall(first, second, 1)[ThreadCpu.Kind.MPI.ordinal()] * 1e6;
        assertTrue(between < bothSnapshots / 10.0, "counted " + between + " ns of two snapshots' " + bothSnapshots);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    @Timeout(30)
    void cpuBurnedIsCountedToTheThreadThatBurnedIt() throws InterruptedException {
        ThreadCpu cpu = new ThreadCpu();
        ThreadCpu.Sample before = cpu.snapshot();
        burn();
        CountDownLatch done = new CountDownLatch(1);
        Thread runtimeThread = new Thread(() -> {
            burn();
            done.countDown();
            try {
                Thread.sleep(10_000); // still alive when the snapshot lists the threads
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "mpj-test-burner");
        runtimeThread.setDaemon(true);
        runtimeThread.start();
        done.await();
        double[] ms = ThreadCpu.millisPerCall(before, cpu.snapshot(), 1);
        runtimeThread.interrupt();

        assertTrue(ms[ThreadCpu.Kind.MPI.ordinal()] >= 40, "the calling thread's burn: " + ThreadCpu.describe(ms));
        assertTrue(ms[ThreadCpu.Kind.RUNTIME.ordinal()] >= 40, "the mpj- thread's burn: " + ThreadCpu.describe(ms));
    }

    /** Keeps a core busy for {@link #BURN_NANOS} of this thread's own CPU time, however loaded the machine. */
    private static void burn() {
        long x = 0;
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        long cpuStart = bean.getCurrentThreadCpuTime();
        while (bean.getCurrentThreadCpuTime() - cpuStart < BURN_NANOS) {
            for (int i = 0; i < 10_000; i++) {
                x += i ^ x;
            }
        }
        sink = x;
    }
}
