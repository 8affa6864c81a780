package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The non-blocking collectives across real processes ({@link NonBlockingCollectivesProgram}): values, several
 * outstanding at once, Test loops while computing, progress from other calls and errors, at 2, 3 and 4 ranks over
 * shared memory (one node) and TCP (every rank its own fake node).
 */
@Timeout(180)
@Tag("multi-jvm")
class NonBlockingCollectivesIT {
    static Stream<Arguments> jobs() {
        return Stream.of(2, 3, 4).flatMap(np -> Stream.of(Arguments.of(np, "shm"), Arguments.of(np, "tcp")));
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("jobs")
    void everyNonBlockingCollectiveCompletesWithTheRightValues(int np, String transport) {
        Job job = Job.np(np);
        if (transport.equals("tcp")) {
            job = job.launcherOptions("--fake-nodes", Integer.toString(np));
        }
        Job.Result r = job.run(NonBlockingCollectivesProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining("nbc OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }
}
