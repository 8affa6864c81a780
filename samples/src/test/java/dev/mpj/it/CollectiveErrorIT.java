package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One rank of four passes a mismatched count to a collective: the error reaches every rank, over shared memory
 * and over TCP. A rank that detects it raises its own error class; every other rank gets ERR_REVOKED naming a
 * rank that detected it; caught, the job goes on and exits 0. No rank hangs. Uncaught, it ends the job: a case of
 * {@link FaultsIT}.
 */
@Timeout(120)
@Tag("multi-jvm")
class CollectiveErrorIT {
    static final int NP = 4;
    private static final int REVOKED = 103;
    private static final Pattern CAUGHT = Pattern.compile("^caught rank (\\d+) class (\\d+): (.*)$");
    private static final Pattern ORIGIN = Pattern.compile("failed at world rank (\\d+):");

    static Stream<Arguments> cases() {
        return Stream.of("shm", "tcp").flatMap(t -> Stream.of("bcast", "reduce", "allreduce", "gather")
                .map(c -> Arguments.of(c, t)));
    }

    /** The job of {@link CollectiveErrorProgram} over {@code transports} ({@code shm}: one node; {@code tcp}). */
    static Job job(String transports) {
        return Job.np(NP).env("MPJ_TRANSPORTS", transports).timeout(60);
    }

    @ParameterizedTest(name = "{0} over {1}")
    @MethodSource("cases")
    void everyRankCatchesTheErrorOneRankDetected(String collective, String transports) {
        Job.Result r = job(transports).run(CollectiveErrorProgram.class, collective, "catch");
        assertFalse(r.timedOut(), r::toString);
        assertEquals(0, r.exitCode(), r::toString);
        assertEveryRankCaughtIt(r.out(), NP, r::toString);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }

    /**
     * One {@code caught} line per rank; some rank detected the mismatch itself (not ERR_REVOKED), and every
     * ERR_REVOKED names such a rank.
     */
    static void assertEveryRankCaughtIt(String out, int np, Supplier<String> job) {
        Map<Integer, Integer> classes = new HashMap<>();
        Map<Integer, String> messages = new HashMap<>();
        out.lines().map(CAUGHT::matcher).filter(Matcher::find).forEach(m -> {
            int rank = Integer.parseInt(m.group(1));
            assertEquals(null, classes.put(rank, Integer.parseInt(m.group(2))), () -> "two lines of rank " + rank);
            messages.put(rank, m.group(3));
        });
        assertEquals(np, classes.size(), job);
        assertTrue(classes.values().stream().anyMatch(c -> c != REVOKED), () -> "nobody detected it\n" + job.get());
        classes.forEach((rank, errorClass) -> {
            if (errorClass == REVOKED) {
                Matcher m = ORIGIN.matcher(messages.get(rank));
                assertTrue(m.find(), job);
                int origin = Integer.parseInt(m.group(1));
                assertNotEquals(REVOKED, classes.get(origin), () -> "rank " + rank + " names rank " + origin
                        + ", which detected nothing\n" + job.get());
            }
        });
    }
}
