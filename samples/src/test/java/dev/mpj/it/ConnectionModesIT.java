package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mpj.connections}: over TCP only ({@code MPJ_TRANSPORTS=tcp}), ranks that all contact each other at once as
 * their first messages get every message once and in order and end with one connection per pair, whether the pairs
 * connected during MPI.Init (eager) or in that race (ondemand). The point-to-point and collective suites run under
 * each mode in {@link PointToPointIT} and {@link CollectivesIT}.
 */
@Timeout(180)
@Tag("multi-jvm")
class ConnectionModesIT {
    private static Job job(int np, String mode) {
        return Job.np(np).env("MPJ_TRANSPORTS", "tcp").env("MPJ_CONNECTIONS", mode);
    }

    private static void assertAllRanksOk(Job.Result r, int np, String program) {
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining(program + " OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ondemand", "eager"})
    void everyPairContactingEachOtherAtOnceEndsWithOneConnectionPerPair(String mode) {
        int np = 8;
        Job.Result r = job(np, mode).run(FirstContactProgram.class);
        assertAllRanksOk(r, np, "firstcontact");
        assertEquals(1, r.linesContaining("firstcontact connections " + np * (np - 1) / 2), r::toString);
    }
}
