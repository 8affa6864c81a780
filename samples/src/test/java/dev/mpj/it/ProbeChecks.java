package dev.mpj.it;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a {@link FlagsProbeProgram} job run with {@code MPJ_INIT_TIMINGS=true} proves about where its ranks ran. */
final class ProbeChecks {
    private ProbeChecks() {
    }

    /**
     * Every rank saw {@code X=x} and the working directory {@code wdir}, and the runtime placed the ranks on two
     * nodes: its init line says "on node 0 of 2" for some ranks and "on node 1 of 2" for the others.
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
}
