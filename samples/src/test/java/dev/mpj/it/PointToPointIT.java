package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Point-to-point semantics across real processes started by mpjrun, for every process count of the
 * suite and over both transports: shared memory (all ranks on one node, the default) and TCP (every rank its
 * own fake node) under each connection mode, every pair connected during MPI.Init ({@code eager}) or at its first
 * message ({@code ondemand}). Each program checks its own data and prints one OK line per rank that got to the end.
 */
@Timeout(180)
@Tag("multi-jvm")
class PointToPointIT {
    static Stream<Arguments> jobs() {
        return Stream.concat(Stream.of(Arguments.of(1, "self")), Stream.of(2, 4, 8).flatMap(np -> Stream.of(
                Arguments.of(np, "shm"), Arguments.of(np, "tcp eager"), Arguments.of(np, "tcp ondemand"))));
    }

    /** {@code transport} is "self", "shm", or "tcp MODE" with MODE a value of {@code mpj.connections}. */
    private static Job job(int np, String transport) {
        Job job = Job.np(np);
        if (!transport.startsWith("tcp ")) {
            return job;
        }
        return job.launcherOptions("--fake-nodes", Integer.toString(np))
                .env("MPJ_CONNECTIONS", transport.substring("tcp ".length()));
    }

    private static void assertAllRanksOk(Job.Result r, int np, String program) {
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining(program + " OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("jobs")
    void pingPongOfEveryDatatypeFromZeroBytesToEightMebibytes(int np, String transport) {
        // 8 MiB crosses the eager threshold and spans several rendezvous chunks
        assertAllRanksOk(job(np, transport).run(PingPongProgram.class, Integer.toString(np <= 2 ? 8 << 20 : 1 << 20)),
                np, "pingpong");
    }

    /** Two nodes, so the roots exchange really runs its allgather over TCP before the program's traffic. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"simple", "shm", "roots"})
    void pingPongAndRequestsWorkAfterEveryAddressExchange(String exchange) {
        Job job = Job.np(4).launcherOptions("--fake-nodes", "2").env("MPJ_ADDRESS_EXCHANGE", exchange);
        assertAllRanksOk(job.run(PingPongProgram.class, Integer.toString(1 << 20)), 4, "pingpong");
        assertAllRanksOk(job.run(RequestsProgram.class), 4, "requests");
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("jobs")
    void bothRanksOfAPairSendingFirstComplete(int np, String transport) {
        assertAllRanksOk(job(np, transport).run(BothSendFirstProgram.class), np, "bothsend");
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("jobs")
    void anySourceAnyTagStormKeepsPerSenderOrder(int np, String transport) {
        assertAllRanksOk(job(np, transport).run(AnySourceStormProgram.class), np, "storm");
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("jobs")
    void synchronousSendCompletesOnlyAfterTheMatch(int np, String transport) {
        assertAllRanksOk(job(np, transport).run(SsendProgram.class), np, "ssend");
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("jobs")
    void invalidArgumentsRaiseMpiExceptionWithTheirErrorClass(int np, String transport) {
        assertAllRanksOk(job(np, transport).run(ErrorsProgram.class), np, "errors");
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("jobs")
    void persistentRequestsWaitanyTestsomeAndSendrecv(int np, String transport) {
        assertAllRanksOk(job(np, transport).run(RequestsProgram.class), np, "requests");
    }
}
