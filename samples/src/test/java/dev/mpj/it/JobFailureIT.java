package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A failing rank ends the whole job quickly, names the rank, and leaves no process behind. */
@Timeout(60)
@Tag("multi-jvm")
class JobFailureIT {
    private static void assertCleanFailure(Job.Result r) {
        assertTrue(r.err().contains("rank 1"), () -> "the failing rank is named\n" + r);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
        assertTrue(!r.timedOut(), r::toString);
    }

    @Test
    void rankExitingWithSevenBeforeFinalizeEndsTheJobNamingIt() {
        Job.Result r = Job.np(2).run(FailingProgram.class, "exit7");
        assertEquals(7, r.exitCode(), r::toString);
        assertCleanFailure(r);
    }

    @Test
    void uncaughtExceptionInARankFailsTheJob() {
        Job.Result r = Job.np(4).run(FailingProgram.class, "throw");
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.err().contains("rank 1 fails on purpose"), r::toString);
        assertCleanFailure(r);
    }

    @Test
    void sigtermToMpjrunStopsEveryRank() throws InterruptedException {
        Job.Running job = Job.np(4).start(FailingProgram.class, "hang");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (job.outSoFar().lines().filter(l -> l.startsWith("ready rank")).count() < 4) {
            assertTrue(System.nanoTime() < deadline, () -> "ranks never got ready: " + job.outSoFar());
            Thread.sleep(20);
        }
        job.launcher().destroy(); // SIGTERM, as kill(1) or a batch system would send
        Job.Result r = job.await(30);
        assertEquals(143, r.exitCode(), r::toString);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }

    @Test
    void abortEndsTheJobWithItsErrorCode() {
        Job.Result r = Job.np(4).run(FailingProgram.class, "abort3");
        assertEquals(3, r.exitCode(), r::toString);
        assertCleanFailure(r);
    }
}
