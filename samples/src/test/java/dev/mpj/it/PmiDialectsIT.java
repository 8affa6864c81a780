package dev.mpj.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mpj.samples.Ring;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same programs under mpjrun with each PMI dialect its server speaks ({@code MPJ_PMI=pmi1|pmi2}), on two
 * fake nodes so that both the node-local and the cross-node paths of MPI.Init run.
 */
@Timeout(120)
@Tag("multi-jvm")
class PmiDialectsIT {
    private static Job job(String dialect, int np) {
        return Job.np(np).env("MPJ_PMI", dialect).env("MPJ_INIT_TIMINGS", "true")
                .launcherOptions("--fake-nodes", "2");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pmi1", "pmi2"})
    void ringAndCollectivesRunOnTwoNodes(String dialect) {
        Job.Result ring = job(dialect, 4).run(Ring.class, "5");
        assertEquals(0, ring.exitCode(), ring::toString);
        assertTrue(ring.out().contains("token = 20 (expected 20)"), ring::toString);
        assertEquals(4, ring.err().lines().filter(l -> l.contains(" pmi(" + dialect + ") ")).count(), ring::toString);

        Job.Result collectives = job(dialect, 4).run(CollectivesProgram.class);
        assertEquals(0, collectives.exitCode(), collectives::toString);
        assertEquals(4, collectives.linesContaining("collectives OK rank"), collectives::toString);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pmi1", "pmi2"})
    void abortEndsTheJobWithItsErrorCode(String dialect) {
        Job.Result r = job(dialect, 4).run(FailingProgram.class, "abort3");
        assertEquals(3, r.exitCode(), r::toString);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }
}
