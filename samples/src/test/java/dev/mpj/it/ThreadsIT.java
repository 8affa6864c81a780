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
 * {@code MPI.THREAD_MULTIPLE} across real processes: eight threads per rank at once mix blocking ping-pong on
 * their own communicators, tagged any-source traffic on {@code COMM_WORLD}, Allreduce on communicators they
 * Dup at once, and requests completed by other threads ({@link ThreadsProgram} checks every value), over
 * shared memory and over TCP (every rank its own fake node). Each job repeats the scenario a few rounds.
 */
@Timeout(300)
@Tag("multi-jvm")
class ThreadsIT {
    private static final String ROUNDS = "3";

    static Stream<Arguments> jobs() {
        return Stream.of(2, 4).flatMap(np -> Stream.of(Arguments.of(np, "shm"), Arguments.of(np, "tcp")));
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("jobs")
    void eightThreadsPerRankCommunicateAtOnceWithCorrectResults(int np, String transport) {
        Job job = Job.np(np).timeout(240);
        if (transport.equals("tcp")) {
            job.launcherOptions("--fake-nodes", Integer.toString(np));
        }

        Job.Result r = job.run(ThreadsProgram.class, ROUNDS, "8");

        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining("threads OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }
}
