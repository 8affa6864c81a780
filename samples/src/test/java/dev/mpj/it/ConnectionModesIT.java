package dev.mpj.it;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mpj.connections}: over TCP only ({@code MPJ_TRANSPORTS=tcp}), a focused subset of the point-to-point and
 * collective suites passes with every pair connected during MPI.Init (eager) and at first use (ondemand), and
 * ranks that all contact each other at once end with one connection per pair.
 */
@Timeout(180)
class ConnectionModesIT {
    static Stream<Arguments> modes() {
        return Stream.of("eager", "ondemand").flatMap(mode -> Stream.of(Arguments.of(4, mode), Arguments.of(8, mode)));
    }

    private static Job job(int np, String mode) {
        return Job.np(np).env("MPJ_TRANSPORTS", "tcp").env("MPJ_CONNECTIONS", mode);
    }

    private static void assertAllRanksOk(Job.Result r, int np, String program) {
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining(program + " OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("modes")
    void collectivesPass(int np, String mode) {
        assertAllRanksOk(job(np, mode).run(CollectivesProgram.class), np, "collectives");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"eager", "ondemand"})
    void pingPongPasses(String mode) {
        assertAllRanksOk(job(4, mode).run(PingPongProgram.class, Integer.toString(1 << 20)), 4, "pingpong");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"eager", "ondemand"})
    void anySourceStormKeepsPerSenderOrder(String mode) {
        assertAllRanksOk(job(8, mode).run(AnySourceStormProgram.class), 8, "storm");
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
