package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the ranks of a hanging job wait: on {@code --timeout}, and on request while the job runs
 * ({@code mpjrun --dump PID}), every rank prints one line per operation it waits for; over shared memory and
 * over TCP (two fake nodes).
 */
@Timeout(120)
@Tag("multi-jvm")
class WaitReportIT {
    private static Job job(String transport) {
        Job job = Job.np(2).timeout(60);
        return transport.equals("tcp") ? job.launcherOptions("--fake-nodes", "2") : job;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp"})
    void timeoutReportsTheReceiveNobodySendsBeforeStoppingTheJob(String transport) {
        Job.Result r = job(transport).launcherOptions("--timeout", "15").run(HangingProgram.class, "recv");
        assertEquals(124, r.exitCode(), r::toString);
        assertTrue(r.err().lines().anyMatch(l -> l.matches(
                "rank 1 waits in Recv\\(source=0, tag=99, COMM_WORLD\\) for \\d+\\.\\d s; unexpected queue: 0")),
                r::toString);
        assertTrue(r.err().contains("rank 0 waits in MPI.Finalize for "), r::toString);
        int report = r.err().indexOf("rank 1 waits in Recv");
        assertTrue(report < r.err().indexOf("mpjrun: job timed out"), () -> "report after the stop\n" + r);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp"})
    void dumpReportsAPendingSynchronousSendAndWaitOnIrecvAndTheJobGoesOn(String transport) throws Exception {
        Job.Running running = job(transport).start(HangingProgram.class, "ssend");
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (running.outSoFar().lines().filter(l -> l.startsWith("ready rank")).count() < 2) {
            assertTrue(System.nanoTime() < deadline, () -> "ranks never got ready: " + running.outSoFar());
            Thread.sleep(20);
        }
        Thread.sleep(300); // from "ready" into the wait
        String rank0 = "rank 0 waits in Ssend(dest=1, tag=8, COMM_WORLD) for ";
        String rank1 = "rank 1 waits in Wait for Irecv(source=0, tag=7, COMM_WORLD) for ";
        dump(running);
        awaitInStderr(running, rank0, rank1);
        assertTrue(running.launcher().isAlive(), "the job ended after the report");
        // the unmatched synchronous send sits in rank 1's unexpected queue
        assertTrue(running.errSoFar().lines().anyMatch(l -> l.startsWith(rank1) && l.endsWith("unexpected queue: 1")),
                running::errSoFar);
        dump(running); // the job still answers
        awaitCount(running, rank1, 2);
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(running.launcher().pid())).start();
        assertEquals(0, kill.waitFor());
        Job.Result r = running.await(30);
        assertEquals(143, r.exitCode(), r::toString);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }

    private static void dump(Job.Running running) throws Exception {
        Process dump = new ProcessBuilder(Job.mpjrun(List.of("--dump", Long.toString(running.launcher().pid()))))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        assertEquals(0, dump.waitFor(), "mpjrun --dump failed (its message is in the test's output)");
    }

    private static void awaitInStderr(Job.Running running, String... starts) throws InterruptedException {
        for (String start : starts) {
            awaitCount(running, start, 1);
        }
    }

    private static void awaitCount(Job.Running running, String start, int count) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (running.errSoFar().lines().filter(l -> l.startsWith(start)).count() < count) {
            assertTrue(System.nanoTime() < deadline, () -> "no '" + start + "' in\n" + running.errSoFar());
            Thread.sleep(20);
        }
    }
}
