package dev.mpj.it;

import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Checks of jobs that mpjrun hands to srun or mpiexec.hydra. */
final class DelegatedJobs {
    private DelegatedJobs() {
    }

    /**
     * For a {@link FlagsProbeProgram} job run with {@code MPJ_INIT_TIMINGS=true}: every rank saw {@code X=x} and
     * the working directory {@code wdir}, and the runtime placed the ranks on two nodes: its init line says
     * "on node 0 of 2" for some ranks and "on node 1 of 2" for the others.
     */
    static void assertRanOnTwoNodesWith(Job.Result r, int np, String x, Path wdir) {
        assertEquals(0, r.exitCode(), r::toString);
        for (int rank = 0; rank < np; rank++) {
            String expected = "rank " + rank + " X=" + x + " Y=null cwd=" + wdir + " ";
            assertEquals(1, r.linesContaining(expected), () -> expected + "\n" + r);
        }
        long first = r.err().lines().filter(l -> l.contains(" of " + np + " on node 0 of 2 ")).count();
        long second = r.err().lines().filter(l -> l.contains(" of " + np + " on node 1 of 2 ")).count();
        assertTrue(first > 0 && second > 0 && first + second == np, r::toString);
    }

    /**
     * SIGTERM to mpjrun once every rank of {@code job} (a {@link FailingProgram} "hang") is ready: mpjrun stops the
     * manager, which stops the ranks; the job's command (mpjrun, or salloc with mpjrun's status) exits 143.
     */
    static void assertSigtermStopsTheJob(Job job, int np) throws InterruptedException {
        Job.Running running = job.start(FailingProgram.class, "hang");
        running.awaitLines("ready rank", np, 90);
        Process launcher = running.launcher();
        ProcessHandle mpjrun = Stream.concat(Stream.of(launcher.toHandle()), launcher.descendants())
                .filter(h -> h.info().commandLine().map(c -> c.contains("dev.mpj.launcher.MpjRun")).orElse(false))
                .findFirst().orElseThrow();
        mpjrun.destroy(); // SIGTERM to mpjrun, also when it runs under salloc
        Job.Result r = running.await(30);
        assertEquals(143, r.exitCode(), r::toString);
        long deadline = System.nanoTime() + 10_000_000_000L; // the manager reaps its ranks after mpjrun returns
        while (!r.leftovers().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }
}
